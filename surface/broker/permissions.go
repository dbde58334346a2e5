package broker

// Permissions are the subjects one workspace's NATS user may publish and subscribe to.
// Every entry is pinned to the workspace: no wildcard reaches another workspace's
// subjects, the command stream is reachable only through the workspace's own consumer
// with its own filter, and nothing reads a stream directly.
type Permissions struct {
	Publish   []string
	Subscribe []string
	// AllowResponses: the user may answer requests it received (tool calls), on the
	// requester's reply subject, once each.
	AllowResponses bool
}

// WorkspacePermissions are the permissions of workspace ws's sidecar; [Issuer] signs
// them into the workspace's user JWT. It connects with [InboxPrefix](ws), so its reply
// inboxes are its own too.
//
// Publish: its own events and announcements (a JetStream publish is a plain publish),
// and the three JetStream API subjects that use its one command consumer: info, next
// message, ack. Not CONSUMER.CREATE, even with the filter pinned in the subject: the
// body could still make it a push consumer delivering into another workspace's
// subjects, which the server publishes on its behalf, past these permissions. The
// control plane creates the consumer ([EnsureCommandConsumer]). Not its own command
// subject (only the control plane sends commands), not its tool subjects (only the
// control plane calls), no STREAM.* or DIRECT.GET.
//
// Subscribe: its tool calls, its own command subject (only as a nudge: the consumer
// now exists), the discovery subject, its own inboxes.
func WorkspacePermissions(ws string) Permissions {
	cons := CommandConsumer(ws)
	api := "$JS.API.CONSUMER."
	own := Prefix + "." + Escape(ws)
	return Permissions{
		Publish: []string{
			own + ".events.>",
			AnnounceSubject(ws),
			api + "INFO." + CommandStream + "." + cons,
			api + "MSG.NEXT." + CommandStream + "." + cons,
			"$JS.ACK." + CommandStream + "." + cons + ".>",
		},
		Subscribe: []string{
			own + ".tools.*",
			CommandSubject(ws), // a nudge that its consumer exists; commands are read through the consumer
			DiscoverSubject,
			InboxPrefix(ws) + ".>",
		},
		AllowResponses: true,
	}
}

// InboxPrefix is the reply-inbox prefix of workspace ws's connection (nats.go's
// CustomInboxPrefix): replies to its JetStream publishes and API calls come there,
// and its permissions let no other workspace listen in.
func InboxPrefix(ws string) string { return "_INBOX_" + Escape(ws) }

package broker

// Permissions are the subjects one workspace's NATS user may publish and subscribe to:
// its own cmdbridge.<ws>.> space, its own reply inboxes, the discovery subject, and the
// JetStream API calls of its one command consumer. A control plane provisions one user
// (or one credentials file) per workspace with exactly these (docs/scale.md).
type Permissions struct {
	Publish   []string
	Subscribe []string
	// AllowResponses: the user may answer requests it received (tool calls), on the
	// requester's reply subject, once each.
	AllowResponses bool
}

// WorkspacePermissions are the permissions of workspace ws's sidecar. It connects with
// [InboxPrefix](ws), so its reply inboxes are its own too.
func WorkspacePermissions(ws string) Permissions {
	cons := CommandConsumer(ws)
	api := "$JS.API.CONSUMER."
	return Permissions{
		Publish: []string{
			WorkspaceSubjects(ws), // events (JetStream publishes are plain publishes), announcements
			api + "CREATE." + CommandStream + "." + cons + ".>",
			api + "INFO." + CommandStream + "." + cons,
			api + "MSG.NEXT." + CommandStream + "." + cons,
			"$JS.ACK." + CommandStream + "." + cons + ".>",
		},
		Subscribe: []string{
			Prefix + "." + Escape(ws) + ".tools.*",
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

// Package broker connects one workspace's sidecar to NATS JetStream, so that one
// control plane can watch and drive many workspaces without holding a connection to
// each: events go out on cmdbridge.<ws>.events.<kind>, tool calls come in as
// request/reply on cmdbridge.<ws>.tools.<name>, conductor commands come in through a
// durable consumer on cmdbridge.<ws>.commands, and the workspace announces itself and
// its tools on cmdbridge.<ws>.announce. docs/scale.md is the operator's manual.
//
// A [Sidecar] is an option next to the embedded default (SSE and the on-disk outbox of
// surface/events), never a replacement: the hub, its outbox and GET /events work as
// before, and the sidecar only adds a second way out and a second way in.
//
// Invariants:
//
//   - <ws> is always the enrolled subject's workspace id, escaped ([Escape]) into one
//     subject token: no workspace id can act as a wildcard or reach another's subjects.
//
//   - A durable event leaves the outbox only after JetStream acknowledged it, and is
//     published with its event_id as the message id, so the stream drops a re-send
//     within its dedup window and consumers dedupe the rest by event_id. The outbox is
//     drained oldest first; a failed publish stops the pass, so order holds.
//
//   - An ephemeral event is a plain publish: nobody subscribed, nobody gets it. Neither
//     kind of event ever makes a tool call or a publisher wait for the broker.
//
//   - A workspace's NATS user ([Issuer.WorkspaceCreds], [WorkspacePermissions]) reaches
//     its own event and announce subjects, its tool-call subjects and inboxes, and the
//     info, next-message and ack subjects of its one command consumer; never another
//     workspace's subjects, its own command or tool subjects (only the control plane
//     publishes there), any stream read, nor a consumer create: the control plane
//     creates every command consumer, a pull consumer pinned to one workspace's
//     subject ([EnsureCommandConsumer]), and a sidecar uses no other.
//
//   - A tool call over NATS passes exactly the checks of POST /tools (surface/http's
//     Authenticate, CheckCall and RunCall: the bearer token in the Authorization
//     header first, then the tool's visibility, then the body) and the same kernel
//     path; the token's subject is the identity of the call. A call without the header
//     runs as the workspace-configured control-plane caller ([ControlCaller]), whose
//     authority is that only the control plane may publish on the tool subjects. A
//     message naming another workspace, in its subject or its Cmdbridge-Workspace
//     header, is refused.
//
//   - A write call carrying an idempotency key (Nats-Msg-Id) runs at most once per
//     caller subject and key: the key is recorded durably before the kernel runs the
//     call, and with the receipt id and the reply after; a redelivery is answered with
//     the recorded reply (Cmdbridge-Replayed: true), a concurrent one waits for the
//     first, and one whose first run was cut off by a crash is answered "in doubt",
//     never run again. A key reused for another call is refused.
//
//   - A command carries no token and runs as the control-plane caller (none
//     configured: refused); a token in its headers is ignored. With a CommandKey (issued
//     credentials) it must carry the control plane's signature for this workspace and
//     its message id ([Issuer.SignCommand]). A call whose reply subject is a JetStream
//     one is a delivery the server made on someone's behalf, not a request: not run. It is acknowledged to
//     the broker only after the outbox holds its conductor:command event; a
//     redelivered command keeps its event_id.
//
//   - An event's workspace is its subject's ([Tail]): a body naming another workspace
//     is shown as the subject's and flagged, never believed.
//
//   - The control plane keeps every head of a workspace's evidence log it is sent
//     ([HeadStore], [KeepHeads]): a head is kept only when its note verifies under the
//     key it names, under the workspace its subject names, and is never dropped; one
//     that does not extend the heads kept (another key, another root at a kept size, a
//     consistency proof that fails, no link at all) is kept with its conflict, so that
//     `evidence verify --published` holds the workspace's log to all of them.
//
// The package never creates the streams on a sidecar's behalf beyond what
// [EnsureStreams] does when a control plane calls it, and never holds a connection's
// credentials: the caller connects. [Issuer] signs credentials for a control plane,
// which keeps its keys in its own state directory.
package broker

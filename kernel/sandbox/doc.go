// Package sandbox runs one tool call inside a bubblewrap (bwrap) sandbox built from the
// call's enforced scopes, and speaks the framed runner protocol on both sides.
//
// The host side is a [Runner]: [Profile] turns a [Request] into bwrap arguments, Run starts
// bwrap with the runner binary inside, hands it the request as one JSON document on stdin
// and reads the single result {"output": <tool.Output>} from a dedicated descriptor (fd 3
// inside). The runner side is [Serve], called by the hidden `cmdbridge __sandbox-run`
// subcommand. [Probe] classifies the host once per bwrap path.
//
// Invariants:
//
//   - A call never runs unsandboxed. When the host cannot build the mandatory profile
//     (bwrap absent, too old for a mandatory flag, user namespaces unavailable) every call
//     fails with tool.CodeSandboxUnavailable; no flag is ever dropped to make bwrap start.
//     The only degradation is "no-proc" (procfs cannot be mounted): the sandbox then has no
//     /proc, and Info.Degraded says so.
//   - The profile is deterministic: the same request and host give the same argv and the
//     same hash. The hash covers the profile (mounts, namespaces, environment, generated
//     /etc files), never the tool input, its stdin, the runner's path or the receipt id.
//   - The runner's stdin is the request; the tool's stdin travels inside it
//     (Request.Stdin) and Serve hands it to run unchanged.
//   - Mandatory flags: --unshare-all, --unshare-user --uid 65534 --gid 65534, --cap-drop
//     ALL, --disable-userns, --new-session, --die-with-parent, --clearenv. Network is shared
//     only when the request says so.
//   - Scopes are mounted shallowest first, a read scope before a write scope of the same
//     depth, so the innermost scope decides: a write scope inside a read scope is writable
//     and a read scope inside a write scope is read-only.
//   - The result travels on its own descriptor; anything the tool prints to stdout or
//     stderr is captured in bounded buffers and can only appear as a tail in the metadata
//     of a failure. A missing, garbled or oversized result is EXECUTION_FAILED.
//   - On deadline or cancellation the whole bwrap process group is killed; with
//     --unshare-pid and --die-with-parent every process of the call dies with it, daemons
//     included. Run returns only after bwrap has been reaped.
//   - The receipt id is the kernel's: Serve echoes it as metadata "receipt_id", and Run
//     rejects a result carrying another one.
package sandbox

package evidence

// Receipt is the record of one terminal tool call. Field order is the on-disk order;
// MAC and Hash must stay the last two fields (see the package documentation).
type Receipt struct {
	// Seq numbers records from 1 in log order; the log assigns it.
	Seq int64 `json:"seq"`
	// ID is the call id, unique per call.
	ID    string `json:"id"`
	RunID string `json:"run_id"`
	// Time is when the call was admitted, RFC 3339 UTC with nanoseconds.
	Time    string `json:"time"`
	Tool    string `json:"tool"`
	Subject string `json:"subject"`
	// InputHash is the SHA-256 of the call's canonical JSON input.
	InputHash string `json:"input_hash"`
	// StdinHash is the SHA-256 of the call's stdin (Request.Stdin); absent when the call
	// had none. Two calls with the same input and different stdin differ here.
	StdinHash string `json:"stdin_hash,omitempty"`
	// Decision is the policy outcome: allow, deny, ask, approved, rejected, or "" when the
	// call ended before policy ran.
	Decision string `json:"decision"`
	Rule     string `json:"rule"`
	// Effect is the call's effect by its input (read_only, write, destructive): the
	// tool's annotations as narrowed by its declared effects; empty when the call ended
	// before policy ran.
	Effect string `json:"effect,omitempty"`
	Lane   string `json:"lane"`
	// Status is ok, failed, refused, timeout or cancelled.
	Status     string `json:"status"`
	ErrorCode  string `json:"error_code"`
	ExitCode   *int   `json:"exit_code"`
	QueuedUS   int64  `json:"queued_us"`
	DurationUS int64  `json:"duration_us"`
	// OutputHash is the SHA-256 of the Output's canonical JSON without its metadata.
	OutputHash string `json:"output_hash"`
	// Sandbox is set when the call ran in the bwrap sandbox lane (or was refused for
	// want of it): the host class, the profile's hash and any degradation.
	Sandbox *SandboxNote `json:"sandbox,omitempty"`
	// Shadow is set when a shadow-routed call also ran its native implementation on a
	// scratch copy: whether the two agreed, and the differences when not.
	Shadow *ShadowNote `json:"shadow,omitempty"`
	// Notes are what a native tool recorded about how it ran (tool.Env.Note), such as
	// git_commit: "in-process", or "git: <why the git binary made the commit>".
	Notes    map[string]string `json:"notes,omitempty"`
	PrevHash string            `json:"prev_hash"`
	// MAC authenticates the record: HMAC-SHA256 of Hash under a key derived from the
	// log's signing key (absent on records written before records had one).
	MAC  string `json:"mac,omitempty"`
	Hash string `json:"hash"`
}

// Statuses a receipt may carry.
const (
	StatusOK        = "ok"
	StatusFailed    = "failed"
	StatusRefused   = "refused"
	StatusTimeout   = "timeout"
	StatusCancelled = "cancelled"
)

// SandboxNote records how a sandboxed call was confined.
type SandboxNote struct {
	// Host is the probe's class of the host: full, no-proc, no-userns or absent.
	Host        string   `json:"host"`
	ProfileHash string   `json:"profile_hash,omitempty"`
	Degraded    []string `json:"degraded,omitempty"`
}

// ShadowNote records a shadow comparison: the adapter result was served, the native
// lane ran on a scratch copy of the workspace, and the two were compared after parity
// normalisation.
type ShadowNote struct {
	Match bool `json:"match"`
	// Diffs are readable one-line descriptions of each difference (bounded).
	Diffs []string `json:"diffs,omitempty"`
	// Error is set when the shadow run itself could not be made (copy failed, …); the
	// served result is unaffected.
	Error      string `json:"error,omitempty"`
	DurationUS int64  `json:"duration_us"`
}

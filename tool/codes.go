package tool

// Error codes of the legacy commands (shared/spec/commands.md §2.3). USAGE exits 2; every
// other command code exits 1.
const (
	CodeUsage                = "USAGE"
	CodeNoWorkspace          = "NO_WORKSPACE"
	CodeConfigInvalid        = "CONFIG_INVALID"
	CodeNotFound             = "NOT_FOUND"
	CodeAlreadyExists        = "ALREADY_EXISTS"
	CodeValidation           = "VALIDATION"
	CodeInvalidTransition    = "INVALID_TRANSITION"
	CodeLaneBusy             = "LANE_BUSY"
	CodeLockActive           = "LOCK_ACTIVE"
	CodeCheckFailed          = "CHECK_FAILED"
	CodeGatesFailed          = "GATES_FAILED"
	CodeDirtyWorktree        = "DIRTY_WORKTREE"
	CodeMergeConflict        = "MERGE_CONFLICT"
	CodeGitError             = "GIT_ERROR"
	CodeIOError              = "IO_ERROR"
	CodeTooLarge             = "TOO_LARGE"
	CodeNotUnique            = "NOT_UNIQUE"
	CodePathOutsideWorkspace = "PATH_OUTSIDE_WORKSPACE"
	CodeNothingToCommit      = "NOTHING_TO_COMMIT"
	CodeInternal             = "INTERNAL"
)

// Codes the bridge and the kernel produce themselves.
const (
	// CodeCommandFailed: a legacy command's stdout was not a JSON envelope.
	CodeCommandFailed      = "COMMAND_FAILED"
	CodeNotImplemented     = "NOT_IMPLEMENTED"
	CodeToolNotFound       = "TOOL_NOT_FOUND"
	CodeToolDisabled       = "TOOL_DISABLED"
	CodeInvalidInput       = "INVALID_INPUT"
	CodeScopeDenied        = "SCOPE_DENIED"
	CodePolicyDenied       = "POLICY_DENIED"
	CodeApprovalRequired   = "APPROVAL_REQUIRED"
	CodeApprovalDenied     = "APPROVAL_DENIED"
	CodeTimeout            = "TIMEOUT"
	CodeCancelled          = "CANCELLED"
	CodeExecutionFailed    = "EXECUTION_FAILED"
	CodeSandboxUnavailable = "SANDBOX_UNAVAILABLE"
)

// Codes is the closed set of error codes an Output may carry.
var Codes = []string{
	CodeUsage, CodeNoWorkspace, CodeConfigInvalid, CodeNotFound, CodeAlreadyExists,
	CodeValidation, CodeInvalidTransition, CodeLaneBusy, CodeLockActive, CodeCheckFailed,
	CodeGatesFailed, CodeDirtyWorktree, CodeMergeConflict, CodeGitError, CodeIOError,
	CodeTooLarge, CodeNotUnique, CodePathOutsideWorkspace, CodeNothingToCommit, CodeInternal,
	CodeCommandFailed, CodeNotImplemented, CodeToolNotFound, CodeToolDisabled,
	CodeInvalidInput, CodeScopeDenied, CodePolicyDenied, CodeApprovalRequired,
	CodeApprovalDenied, CodeTimeout, CodeCancelled, CodeExecutionFailed,
	CodeSandboxUnavailable,
}

// KnownCode reports whether code belongs to the closed set.
func KnownCode(code string) bool {
	for _, c := range Codes {
		if c == code {
			return true
		}
	}
	return false
}

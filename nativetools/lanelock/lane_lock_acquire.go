package lanelock

import (
	"context"
	"time"

	lock "github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// AcquireInput is lane-lock:acquire's input.
type AcquireInput struct {
	Lane         string `json:"lane" jsonschema:"lane name, e.g. Core: API"`
	WUID         string `json:"wu_id" jsonschema:"work unit taking the lane"`
	Owner        string `json:"owner" jsonschema:"lock owner identity"`
	StaleAfterMS int64  `json:"stale_after_ms,omitempty" jsonschema:"staleness threshold in milliseconds (default STALE_LOCK_THRESHOLD_HOURS)"`
}

// AdjustSchema refuses what the handler refuses for its shape: an empty lane, wu_id or
// owner.
func (AcquireInput) AdjustSchema(s *jsonschema.Schema) {
	shell.MinLength(s, 1, "lane", "wu_id", "owner")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "lane-lock:acquire",
		Description: "Acquire a lane lock for a WU (§1.11), taking over a stale lock.",
		Annotations: tool.Annotations{Title: "Acquire lane lock", IdempotentHint: true},
	}, acquire))
}

func acquire(ctx context.Context, env *tool.Env, in AcquireInput) tool.Output {
	var p shell.Problems
	p.Require("lane", in.Lane)
	p.Require("wu_id", in.WUID)
	p.Require("owner", in.Owner)
	p.Check(in.StaleAfterMS >= 0, "stale_after_ms must not be negative")
	if fail := p.Fail("lane-lock:acquire"); fail != nil {
		return *fail
	}
	c, ws, fail := shell.OpenWorkspace(ctx, env)
	if fail != nil {
		return *fail
	}
	stale := c.RT.StaleThreshold()
	if in.StaleAfterMS > 0 {
		stale = time.Duration(in.StaleAfterMS) * time.Millisecond
	}
	res, err := lock.Acquire(ws.Root, in.Lane, in.WUID, in.Owner, c.RT.Now(), stale)
	if err != nil {
		return tool.Fail(tool.CodeIOError, "lane-lock:acquire: %v", err)
	}
	out := tool.OK(map[string]any{
		"acquired": res.Acquired, "already_held": res.AlreadyHeld, "is_stale": res.IsStale,
		"lock_path": res.LockPath, "holder": res.Holder,
	})
	if len(res.Warnings) > 0 {
		out = out.WithMeta("warnings", res.Warnings)
	}
	return out
}

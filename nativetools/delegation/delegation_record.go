package delegation

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/nativetools"
	"github.com/cmdbridge/cmdbridge/nativetools/internal/shell"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// RecordInput is delegation:record's input.
type RecordInput struct {
	ParentWUID string `json:"parent_wu_id" jsonschema:"the delegating WU"`
	TargetWUID string `json:"target_wu_id" jsonschema:"the WU delegated to"`
	Lane       string `json:"lane,omitempty" jsonschema:"lane of the delegation (default: the target WU's lane)"`
	Intent     string `json:"intent,omitempty" jsonschema:"delegation or legacy-spawn (default delegation)"`
}

// AdjustSchema gives both WU ids the WU-<number> form the handler checks.
func (RecordInput) AdjustSchema(s *jsonschema.Schema) {
	shell.WUIDs(s, "parent_wu_id", "target_wu_id")
}

func init() {
	nativetools.Register(native.New(tool.Spec{
		Name:        "delegation:record",
		Description: "Record a pending delegation from one WU to another in the delegation registry and the event log.",
		Annotations: tool.Annotations{Title: "Record delegation"},
	}, record))
}

func record(ctx context.Context, env *tool.Env, in RecordInput) tool.Output {
	if in.Intent == "" {
		in.Intent = "delegation"
	}
	var p shell.Problems
	p.Check(delivery.ValidWUID(in.ParentWUID), "parent_wu_id must look like WU-<number>")
	p.Check(delivery.ValidWUID(in.TargetWUID), "target_wu_id must look like WU-<number>")
	p.Check(in.Intent == "delegation" || in.Intent == "legacy-spawn", "intent must be delegation or legacy-spawn")
	if fail := p.Fail("delegation:record"); fail != nil {
		return *fail
	}
	c, ws, fail := shell.OpenWorkspace(ctx, env)
	if fail != nil {
		return *fail
	}
	// The registry append and the event append are one write: a failure after the first
	// rolls it back (the write journal), as the legacy command's convention does.
	out, _, _ := shell.Journaled(ctx, c.RT, ws, func() (tool.Output, ops.Notes, error) {
		out := recordOn(c, ws, in)
		if !out.Success {
			return out, ops.Notes{}, errFailed
		}
		return out, ops.Notes{}, nil
	})
	return out
}

// errFailed tells shell.Journaled that the call failed (its Output carries the error).
var errFailed = errors.New("failed")

// recordOn is delegation:record on an opened workspace.
func recordOn(c *shell.Call, ws *delivery.Workspace, in RecordInput) tool.Output {
	if _, err := delivery.ReadWU(ws, in.ParentWUID); err != nil {
		return shell.Fail(err)
	}
	target, err := delivery.ReadWU(ws, in.TargetWUID)
	if err != nil {
		return shell.Fail(err)
	}
	if in.Lane == "" {
		in.Lane = target.Lane
	}
	reg, err := delivery.ReadDelegations(ws.Root)
	if err != nil {
		return shell.Fail(err)
	}
	now := delivery.Timestamp(c.RT.Now())
	rec := delivery.Delegation{
		ID:         delivery.NewID(c.RT, delivery.KindDelegation, reg.Has),
		ParentWUID: in.ParentWUID, TargetWUID: in.TargetWUID, Lane: in.Lane, Intent: in.Intent,
		DelegatedAt: now, Status: "pending",
	}
	if err := delivery.AppendDelegations(ws.Root, rec); err != nil {
		return shell.Fail(err)
	}
	ev := delivery.Event{Type: delivery.EventDelegation, WUID: in.TargetWUID, Timestamp: now,
		ParentWUID: in.ParentWUID, DelegationID: rec.ID}
	if err := delivery.AppendEvents(ws.Root, ev); err != nil {
		return shell.Fail(err)
	}
	return tool.OK(map[string]any{
		"delegation_id": rec.ID, "registry_path": filepath.ToSlash(delivery.DelegationFile), "record": rec,
	})
}

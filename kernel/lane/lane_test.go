package lane_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/kernel/lane"
	"github.com/cmdbridge/cmdbridge/tool"
)

type plain struct{}

func (plain) Name() string { return "plain" }

func (plain) Run(ctx context.Context, call lane.Call) tool.Output { return tool.OK(call.Spec.Name) }

type binder struct{ err error }

func (binder) Name() string { return "binder" }

func (b binder) Run(ctx context.Context, call lane.Call) tool.Output {
	return lane.RunBound(ctx, b, call)
}

func (b binder) Bind(call lane.Call) (func(context.Context) tool.Output, error) {
	if b.err != nil {
		return nil, b.err
	}
	return func(context.Context) tool.Output { return tool.OK("bound " + call.Spec.Name) }, nil
}

// TestBind: a plain lane binds to its Run; a Binder binds through Bind, and RunBound
// makes its rejection INVALID_INPUT.
func TestBind(t *testing.T) {
	call := lane.Call{Spec: &tool.Spec{Name: "x:y"}}
	run, err := lane.Bind(plain{}, call)
	require.NoError(t, err)
	assert.Equal(t, "x:y", run(context.Background()).Data)

	run, err = lane.Bind(binder{}, call)
	require.NoError(t, err)
	assert.Equal(t, "bound x:y", run(context.Background()).Data)

	_, err = lane.Bind(binder{err: errors.New("bad input")}, call)
	assert.EqualError(t, err, "bad input")
	out := binder{err: errors.New("bad input")}.Run(context.Background(), call)
	require.NotNil(t, out.Error)
	assert.Equal(t, tool.CodeInvalidInput, out.Error.Code)
	assert.Equal(t, "x:y: bad input", out.Error.Message)
}

// TestNotes: the last value of a note wins, readers get copies, writers may race, and a
// nil *Notes records and returns nothing.
func TestNotes(t *testing.T) {
	n := &lane.Notes{}
	assert.Nil(t, n.Values())
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			n.Note("k", "v")
			n.SetShadow(&evidence.ShadowNote{Match: true})
			n.SetSandbox(&evidence.SandboxNote{Host: "full"})
			_ = n.Values()
		})
	}
	wg.Wait()
	n.Note("k", "last")
	vals := n.Values()
	assert.Equal(t, map[string]string{"k": "last"}, vals)
	vals["k"] = "changed"
	assert.Equal(t, "last", n.Values()["k"], "Values is a copy")
	assert.True(t, n.Shadow().Match)
	assert.Equal(t, "full", n.Sandbox().Host)

	var none *lane.Notes
	none.Note("k", "v")
	none.SetShadow(&evidence.ShadowNote{})
	none.SetSandbox(&evidence.SandboxNote{})
	assert.Nil(t, none.Values())
	assert.Nil(t, none.Shadow())
	assert.Nil(t, none.Sandbox())
}

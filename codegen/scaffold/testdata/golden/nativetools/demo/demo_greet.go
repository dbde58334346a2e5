// Scaffolded by `cmdbridge scaffold demo:greet` from newGreetApp (codegen/scaffold/testdata/greet/greet.go).
// The Input struct reproduces the adapter's input schema; write the handler, then delete the
// NOT_IMPLEMENTED test and route the tool native once its parity script passes.

package demo

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/codegen/scaffold/testdata/greet/tools"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/native"
)

// GreetInput is demo:greet's input: one field per adapter schema property, in the same order.
type GreetInput struct {
	Name     string   `json:"name" jsonschema:"who to greet"`
	Times    int64    `json:"times,omitempty" jsonschema:"how many greetings"`
	MaxWidth int64    `json:"max_width,omitempty"`
	Shout    bool     `json:"shout,omitempty" jsonschema:"upper-case the greeting"`
	CC       []string `json:"cc,omitempty" jsonschema:"also greet (repeatable)"`
	Tone     string   `json:"tone,omitempty" jsonschema:"how to sound (warm|dry)"`
	Greeting string   `json:"greeting,omitempty"`
}

// AdjustSchema adds the keywords a struct tag cannot carry (defaults, enums, bounds), so the
// schema native.New infers equals the adapter's.
func (GreetInput) AdjustSchema(s *jsonschema.Schema) {
	s.Properties["times"].Default = json.RawMessage(`1`)
	s.Properties["max_width"].Description = "wrap=column at which lines wrap (0: never)"
	s.Properties["max_width"].Minimum = jsonschema.Ptr(0.0)
	s.Properties["tone"].Default = json.RawMessage(`"warm"`)
	s.Properties["tone"].Enum = []any{"warm", "dry"}
	s.Properties["greeting"].Pattern = "^(?:$|-$|[^-])"
}

func init() {
	tools.Register(native.New(tool.Spec{
		Name:         "demo:greet",
		Description:  "Greet someone a number of times",
		Annotations:  tool.Annotations{ReadOnlyHint: true, IdempotentHint: true},
		ParallelSafe: true,
	}, runGreet))
}

// runGreet serves demo:greet natively. Until it is written the tool answers NOT_IMPLEMENTED, so
// parity reports it in progress (exit 1 unless --allow-in-progress) and its route stays adapter.
func runGreet(ctx context.Context, env *tool.Env, in GreetInput) tool.Output {
	return tool.Fail(tool.CodeNotImplemented, "demo:greet: the native handler is not written yet")
}

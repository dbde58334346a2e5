package native

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Tool is one native implementation: its spec and a binder from raw JSON input to a
// ready-to-run call.
type Tool struct {
	Spec   tool.Spec
	bind   func(input json.RawMessage) (func(ctx context.Context, env *tool.Env) tool.Output, error)
	decode func(input json.RawMessage) (any, error)
}

// Decode returns the Input value a call with this input would hand the handler, without
// running it (tests use it to prove every schema property reaches the handler).
func (t Tool) Decode(input json.RawMessage) (any, error) { return t.decode(input) }

// Bind decodes input and returns the call to run; input that does not decode into the
// Input struct (unknown fields, wrong types) is an error. The kernel binds in the
// caller's goroutine and runs the call under the deadline. The handler's context
// carries the call's Env (tool.EnvFromContext).
func (t Tool) Bind(input json.RawMessage) (func(ctx context.Context, env *tool.Env) tool.Output, error) {
	run, err := t.bind(input)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, env *tool.Env) (out tool.Output) {
		defer func() {
			if r := recover(); r != nil {
				out = tool.FailDetails(tool.CodeInternal, map[string]any{"stack": string(debug.Stack())},
					"%s: panic: %v", t.Spec.Name, r)
			}
		}()
		return run(tool.ContextWithEnv(ctx, env), env)
	}, nil
}

// Call validates input as the kernel does (tool.Spec.CheckInput: malformed JSON, and
// input the schema rejects, are INVALID_INPUT, so the handler gets only what its schema
// allows), binds it and runs the handler. A panic in the handler is recovered as
// INTERNAL. The kernel validates, then uses Bind: each call is validated once.
func (t Tool) Call(ctx context.Context, env *tool.Env, input json.RawMessage) tool.Output {
	v, _, bad := tool.DecodeInput(input)
	if bad == nil {
		bad = t.Spec.CheckInput(v)
	}
	if bad != nil {
		return bad.Output()
	}
	run, err := t.Bind(input)
	if err != nil {
		return tool.Fail(tool.CodeInvalidInput, "%v", err)
	}
	return run(ctx, env)
}

// SchemaAdjuster is implemented by an Input struct whose schema needs keywords a struct
// tag cannot carry (defaults, enums, bounds, minItems): [New] infers the schema from the
// struct, then hands it to AdjustSchema. Scaffolded tools use it so their schema equals
// the adapter's byte for byte.
type SchemaAdjuster interface {
	AdjustSchema(s *jsonschema.Schema)
}

// New builds a native tool whose input schema is inferred from In (then adjusted by
// In's AdjustSchema when In implements [SchemaAdjuster]). spec.InputSchema is
// overwritten; every other spec field is kept. It panics when In cannot be described
// by a JSON Schema, which is a programming error caught by any test that loads the
// registry.
func New[In any](spec tool.Spec, handler func(ctx context.Context, env *tool.Env, in In) tool.Output) Tool {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("nativetools: %s: input schema: %v", spec.Name, err))
	}
	schema.Schema = "https://json-schema.org/draft/2020-12/schema"
	if schema.Properties == nil {
		// An empty Input struct still describes an object with no properties.
		schema.Properties = map[string]*jsonschema.Schema{}
	}
	dropNull(schema)
	var zero In
	if a, ok := any(zero).(SchemaAdjuster); ok {
		a.AdjustSchema(schema)
	} else if a, ok := any(&zero).(SchemaAdjuster); ok {
		a.AdjustSchema(schema)
	}
	spec.InputSchema = schema
	if spec.DefaultTimeout == 0 {
		spec.DefaultTimeout = tool.DefaultTimeout
	}
	if spec.MaxTimeout == 0 {
		spec.MaxTimeout = tool.MaxTimeout
	}
	name := spec.Name
	decode := func(input json.RawMessage) (In, error) {
		var in In
		if len(input) > 0 && string(input) != "null" {
			dec := json.NewDecoder(bytes.NewReader(input))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&in); err != nil {
				return in, fmt.Errorf("%s: decode input: %w", name, err)
			}
		}
		return in, nil
	}
	return Tool{
		Spec: spec,
		bind: func(input json.RawMessage) (func(ctx context.Context, env *tool.Env) tool.Output, error) {
			in, err := decode(input)
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context, env *tool.Env) tool.Output { return handler(ctx, env, in) }, nil
		},
		decode: func(input json.RawMessage) (any, error) { return decode(input) },
	}
}

// Registry holds native tools by canonical name.
type Registry struct {
	mu     sync.RWMutex
	byName map[string]Tool
	routes map[string]string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byName: map[string]Tool{}} }

// Add registers t, failing on an empty name, a nil handler, a name taken, or a name that
// is another registered name spelled differently. A spec without a Domain gets
// tool.Domain(Name), the part of the name before ':'.
func (r *Registry) Add(t Tool) error {
	if t.Spec.Name == "" || t.bind == nil {
		return fmt.Errorf("native tool %q: build it with native.New", t.Spec.Name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.byName)+1)
	for n := range r.byName {
		names = append(names, n)
	}
	if _, err := tool.NewNames(append(names, t.Spec.Name)); err != nil {
		return fmt.Errorf("native tool: %w", err)
	}
	if t.Spec.Domain == "" {
		t.Spec.Domain = tool.Domain(t.Spec.Name)
	}
	r.byName[t.Spec.Name] = t
	return nil
}

// Lookup returns the tool with this canonical name.
func (r *Registry) Lookup(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.byName[name]
	return t, ok
}

// All returns every tool sorted by name.
func (r *Registry) All() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Tool, 0, len(r.byName))
	for _, t := range r.byName {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Spec.Name < out[j].Spec.Name })
	return out
}

// SetRoutes records the lane that serves tools by default (tool name → adapter, native or
// shadow): the route table a corpus keeps beside its native tools and flips when a
// native twin passes parity. The kernel lays a workspace's routes over it.
func (r *Registry) SetRoutes(routes map[string]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.routes = make(map[string]string, len(routes))
	for k, v := range routes {
		r.routes[k] = v
	}
}

// Routes returns a copy of the route table SetRoutes recorded (empty when none).
func (r *Registry) Routes() map[string]string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make(map[string]string, len(r.routes))
	for k, v := range r.routes {
		out[k] = v
	}
	return out
}

// dropNull turns the ["null", T] types jsonschema-go infers for slices, maps and
// pointers into plain T: a tool input property is absent or a value, never null, which is
// also what the adapter derives from flags.
func dropNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for _, p := range s.Properties {
		dropNull(p)
	}
	dropNull(s.Items)
}

// Raw builds a tool from a spec that already carries its input schema and a call over
// raw JSON. It is for tools whose input has no Go struct (test doubles, generated
// bridges); prefer New.
func Raw(spec tool.Spec, call func(ctx context.Context, env *tool.Env, input json.RawMessage) tool.Output) Tool {
	return Tool{
		Spec: spec,
		bind: func(input json.RawMessage) (func(ctx context.Context, env *tool.Env) tool.Output, error) {
			return func(ctx context.Context, env *tool.Env) tool.Output { return call(ctx, env, input) }, nil
		},
		decode: func(input json.RawMessage) (any, error) {
			var v any
			err := json.Unmarshal(input, &v)
			return v, err
		},
	}
}

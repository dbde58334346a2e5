package legacy

import (
	"runtime"
	"sync"
	"weak"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/urfave/cli/v2"
)

// Constrained is implemented by a cli.Generic flag value whose accepted form the JSON
// type does not say (a pattern, a range): Constrain adds those keywords to the flag's
// property schema. The adapter calls it when it derives the tool's input schema, so
// the kernel refuses a value the command would refuse, before anything runs.
type Constrained interface {
	Constrain(s *jsonschema.Schema)
}

// keywords holds the functions [Constrain] attached to flags, keyed weakly by the flag:
// an entry goes with its flag (an app is built anew for each call).
var keywords sync.Map // weak.Pointer[T] (as any) → func(*jsonschema.Schema)

// Constrain attaches JSON Schema keywords to a flag whose checks the schema cannot see
// otherwise — the range an Action enforces on an int flag, the pattern or choices every
// value of a repeatable flag must meet — and returns the flag. The adapter calls add on
// the flag's property schema (an array's for a repeatable flag) when it derives the
// tool's input schema. A cli.Generic flag's value may implement [Constrained] instead.
func Constrain[T any, F interface {
	*T
	cli.Flag
}](f F, add func(s *jsonschema.Schema)) F {
	key := weak.Make((*T)(f))
	keywords.Store(key, add)
	runtime.AddCleanup((*T)(f), func(k weak.Pointer[T]) { keywords.Delete(k) }, key)
	return f
}

// ConstrainSchema applies to s what f declares of its values beyond their type: the
// function [Constrain] attached to f, and its cli.Generic value's [Constrained]
// keywords. It reports whether there was anything to apply.
func ConstrainSchema(f cli.Flag, s *jsonschema.Schema) bool {
	add := attached(f)
	if add != nil {
		add(s)
	}
	if g, ok := f.(*cli.GenericFlag); ok && g.Value != nil {
		if c, ok := g.Value.(Constrained); ok {
			c.Constrain(s)
			return true
		}
	}
	return add != nil
}

// attached is the function Constrain attached to f, or nil. Keys are typed weak
// pointers, so f's concrete type is needed to look one up: every flag type of
// urfave/cli v2 is listed.
func attached(f cli.Flag) func(*jsonschema.Schema) {
	switch f := f.(type) {
	case *cli.BoolFlag:
		return lookup(f)
	case *cli.StringFlag:
		return lookup(f)
	case *cli.PathFlag:
		return lookup(f)
	case *cli.IntFlag:
		return lookup(f)
	case *cli.Int64Flag:
		return lookup(f)
	case *cli.UintFlag:
		return lookup(f)
	case *cli.Uint64Flag:
		return lookup(f)
	case *cli.Float64Flag:
		return lookup(f)
	case *cli.DurationFlag:
		return lookup(f)
	case *cli.TimestampFlag:
		return lookup(f)
	case *cli.GenericFlag:
		return lookup(f)
	case *cli.StringSliceFlag:
		return lookup(f)
	case *cli.IntSliceFlag:
		return lookup(f)
	case *cli.Int64SliceFlag:
		return lookup(f)
	case *cli.UintSliceFlag:
		return lookup(f)
	case *cli.Uint64SliceFlag:
		return lookup(f)
	case *cli.Float64SliceFlag:
		return lookup(f)
	}
	return nil
}

func lookup[T any](p *T) func(*jsonschema.Schema) {
	if add, ok := keywords.Load(weak.Make(p)); ok {
		return add.(func(*jsonschema.Schema))
	}
	return nil
}

package legacy

import (
	"runtime"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/urfave/cli/v2"
)

func entries() int {
	n := 0
	keywords.Range(func(any, any) bool { n++; return true })
	return n
}

// Keywords attached to a flag go with the flag: an app is built anew for every call, so
// a long-lived host must not keep every flag it ever saw.
func TestConstrainKeepsNothingOfDeadFlags(t *testing.T) {
	before := entries()
	for i := 0; i < 100; i++ {
		Constrain(&cli.IntFlag{Name: "n"}, func(s *jsonschema.Schema) { s.Minimum = jsonschema.Ptr(1.0) })
	}
	live := Constrain(&cli.StringSliceFlag{Name: "ids"}, func(s *jsonschema.Schema) { s.Items.Pattern = "^x$" })
	deadline := time.Now().Add(10 * time.Second)
	for entries() > before+1 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	assert.LessOrEqual(t, entries(), before+1, "the 100 dead flags' keywords are gone")

	s := &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}}
	assert.True(t, ConstrainSchema(live, s))
	assert.Equal(t, "^x$", s.Items.Pattern)
	assert.False(t, ConstrainSchema(&cli.StringSliceFlag{Name: "other"}, &jsonschema.Schema{}), "another flag has none")
	runtime.KeepAlive(live)
}

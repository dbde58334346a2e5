package devcli

import (
	"encoding/json"
	"io"

	"github.com/cmdbridge/cmdbridge/surface/cli"
)

// usageError ends a command with the usage status (2), as surface/cli's own do; any
// other error it returns is a failure (1), printed once by cli.Main.
var usageError = cli.UsageErrorf

// printJSON writes v as indented JSON with a trailing newline.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

package devcli

import (
	"encoding/json"
	"fmt"
	"io"

	ucli "github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/surface/cli"
)

// usageError ends a command with the usage status (2), as surface/cli's own do.
func usageError(format string, args ...any) error {
	return ucli.Exit(fmt.Sprintf(format, args...), cli.ExitUsage)
}

// failed ends a command with the failure status (1).
func failed(format string, args ...any) error {
	return ucli.Exit(fmt.Sprintf(format, args...), cli.ExitFailed)
}

// silentFailure ends a command with status 1 after it already printed its result.
var silentFailure = ucli.Exit("", cli.ExitFailed)

// printJSON writes v as indented JSON with a trailing newline.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

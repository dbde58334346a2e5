package initiative_test

import (
	"testing"

	"github.com/cmdbridge/cmdbridge/nativetools/internal/nativetest"
	"github.com/cmdbridge/cmdbridge/tool"
)

// outcome is a failed Output's error code and, for the schema's refusal, the place it
// names (details.path): "INVALID_INPUT /wu".
func outcome(t *testing.T, out tool.Output) string {
	t.Helper()
	code := nativetest.Code(t, out)
	if code != tool.CodeInvalidInput {
		return code
	}
	d, _ := out.Error.Details.(map[string]any)
	path, _ := d["path"].(string)
	return code + " " + path
}

// invalidAt is the outcome of an input the kernel's schema validation refuses at path
// (a JSON pointer; "/" for a rule between properties), before the handler runs.
func invalidAt(path string) string { return tool.CodeInvalidInput + " " + path }

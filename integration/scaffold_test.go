package integration_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/codegen/scaffold"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/internal/outsidetest"
)

// schemaPrinter is the program the test builds next to the generated packages: it
// registers every generated tool and prints "name<TAB>schema JSON<TAB>effects
// JSON<TAB>annotations JSON" per tool.
const schemaPrinter = `package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "IMPORT/nativetools/all"
)

func main() {
	for _, t := range nativetools.Default.All() {
		b, err := json.Marshal(t.Spec.InputSchema)
		if err != nil {
			fmt.Fprintln(os.Stderr, t.Spec.Name, err)
			os.Exit(1)
		}
		e, err := json.Marshal(t.Spec.Effects)
		if err != nil {
			fmt.Fprintln(os.Stderr, t.Spec.Name, err)
			os.Exit(1)
		}
		a, err := json.Marshal(t.Spec.Annotations)
		if err != nil {
			fmt.Fprintln(os.Stderr, t.Spec.Name, err)
			os.Exit(1)
		}
		fmt.Printf("%s\t%s\t%s\t%s\n", t.Spec.Name, b, e, a)
	}
}
`

// TestEveryCommandSchemaEqualsAdapter scaffolds every corpus command into a temporary
// folder inside the module (so the generated code compiles with it), vets the generated
// packages (tool and test files), runs a program printing each generated Input's
// schema, effects and annotations, and compares each with adapter.Schema and the
// adapter spec's effects and annotations byte for byte (a runs-code hint lost on the way
// would let a native gate runner past the policy's ask).
func TestEveryCommandSchemaEqualsAdapter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the go command")
	}
	mod := outsidetest.RepoRoot(t)
	require.NoError(t, os.MkdirAll("testdata", 0o755))
	root, err := os.MkdirTemp("testdata", "gen-")
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = os.RemoveAll(root)
		_ = os.Remove("testdata") // when nothing else is in it
	})
	root, err = filepath.Abs(root)
	require.NoError(t, err)

	corpus := commands.All()
	var names []string
	for _, c := range corpus {
		names = append(names, c.Name)
	}
	require.Len(t, names, 82, "the corpus has 82 commands")
	files, err := scaffold.Plan(context.Background(), scaffold.Config{
		Root: root, Dir: mod, Commands: commands.Default, Scripts: filepath.Join(mod, "testdata", "script"),
		// The corpus's registry: cmd/cmdbridge's host.Config.ScaffoldRegistry.
		Initialisms: delivery.Initialisms, Registry: "github.com/cmdbridge/cmdbridge/nativetools.Register",
	}, names...)
	require.NoError(t, err)
	_, err = scaffold.Write(root, files, false)
	require.NoError(t, err)

	rel, err := filepath.Rel(mod, root)
	require.NoError(t, err)
	importRoot := "github.com/cmdbridge/cmdbridge/" + filepath.ToSlash(rel)
	require.NoError(t, os.MkdirAll(filepath.Join(root, "schemas"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "schemas", "main.go"),
		[]byte(strings.ReplaceAll(schemaPrinter, "IMPORT", importRoot)), 0o644))

	out, err := goCmd(t, mod, "vet", "./"+filepath.ToSlash(rel)+"/...")
	require.NoError(t, err, "go vet of the generated code:\n%s", out)
	out, err = goCmd(t, mod, "run", "./"+filepath.ToSlash(rel)+"/schemas")
	require.NoError(t, err, "schema printer:\n%s", out)

	got, gotEffects, gotAnnotations := map[string]string{}, map[string]string{}, map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		require.Len(t, parts, 4, "printer line %q", sc.Text())
		got[parts[0]], gotEffects[parts[0]], gotAnnotations[parts[0]] = parts[1], parts[2], parts[3]
	}
	require.Len(t, got, len(names))
	for _, c := range corpus {
		want, err := adapter.Schema(c)
		require.NoError(t, err)
		wantJSON, err := json.Marshal(want)
		require.NoError(t, err)
		assert.Equal(t, string(wantJSON), got[c.Name], "schema of %s", c.Name)
		spec, err := adapter.Spec(c)
		require.NoError(t, err)
		wantEffects, err := json.Marshal(spec.Effects)
		require.NoError(t, err)
		assert.Equal(t, string(wantEffects), gotEffects[c.Name], "effects of %s", c.Name)
		wantAnnotations, err := json.Marshal(spec.Annotations)
		require.NoError(t, err)
		assert.Equal(t, string(wantAnnotations), gotAnnotations[c.Name], "annotations of %s", c.Name)
	}
}

func goCmd(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

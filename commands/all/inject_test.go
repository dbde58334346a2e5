package all_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/kernel/assemble"
	"github.com/cmdbridge/cmdbridge/kernel/evidence"
	"github.com/cmdbridge/cmdbridge/nativetools"
	_ "github.com/cmdbridge/cmdbridge/nativetools/all"
	"github.com/cmdbridge/cmdbridge/nativetools/schematest"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// optionPayloads are values an attacker sends hoping a lane hands them to a program as
// options: git's --output (writes FILE), -O (reads FILE), --ext-diff (runs diff.external),
// -c (a configuration, a pager), --upload-pack and --exec (run a command). Every file
// they name is in the canary directory, or is the token key or the evidence log.
func optionPayloads(canary, tokenKey, receipts string, n int) []string {
	at := func(what string) string { return filepath.Join(canary, fmt.Sprintf("%s-%d", what, n)) }
	return []string{
		"--output=" + at("output"),
		"-O" + at("order"),
		"--ext-diff",
		"-c core.pager=touch " + at("pager"),
		"--upload-pack=touch " + at("upload-pack"),
		"--exec=touch " + at("exec"),
		"--output=" + tokenKey,
		"--output=" + receipts,
	}
}

// TestRedTeamNoInputBecomesAnOption walks every tool of the corpus (the legacy commands
// and the native tools, through a real kernel) × every string property (and string list
// item) × option-shaped payloads × its lanes (adapter, subprocess, native), each tool on
// its own copy of the acme workspace, and asserts after every call that nothing ran
// and nothing the payload names was written:
//
//   - the canary directory outside the workspace stays empty: it is where every
//     --output, touch and diff.external target lies (the fixture's .git/config sets
//     diff.external to a touch there, and the work tree has a change to diff);
//   - the state directory's token.key is unchanged, and the evidence log only grows
//     (the reported attack: --output=<receipts> emptied it);
//   - a read-only tool leaves the whole workspace, .git included, byte for byte as it
//     was. A writing tool changes the tree legitimately whatever the value, so for it
//     the check is what a payload names: the canary, the key, the log. That is all an
//     option-shaped value can reach, since every file a payload names is one of them.
//
// A property whose schema says which values it takes (an enum, tool.OperandPattern) must
// refuse every payload with INVALID_INPUT on every lane, naming the property; every
// positional of a command must be such a property (the passthrough aside: it follows
// "--" and is by declaration another program's arguments).
//
// Cost: a property a command binds as a flag value (--name=VALUE, a value to urfave/cli
// whatever it holds), and a native tool's property a Go handler reads as a value, gets
// one payload per lane, taken in turn from the list; an operand (a positional, the
// passthrough, a property with an enum or tool.OperandPattern) gets them all. The
// subprocess lane (the test binary as `delivery`, a second or two per start under
// -race) runs the argv and the command code the adapter lane runs; what it adds is the
// process boundary. So it runs every operand's payloads (which the kernel refuses
// before starting it) and, for each command that receives words of its own (a
// positional, a passthrough), one call carrying a payload in every string flag at once.
func TestRedTeamNoInputBecomesAnOption(t *testing.T) {
	bin := commandstest.Exe(t)
	canary := t.TempDir()
	template := t.TempDir()
	copyTree(t, acmeDir, template)
	gitCommitAll(t, template)
	// Something for git diff to show, and an external diff that leaves a mark.
	f, err := os.OpenFile(filepath.Join(template, "go.mod"), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("// changed\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	runGitIn(t, template, "config", "diff.external", "touch "+filepath.Join(canary, "ext-diff"))

	probe := newWalkKernel(t, template, bin, t.TempDir()) // for the tool list only
	tools, err := probe.ManifestTools()
	require.NoError(t, err)
	specs := map[string]tool.Spec{}
	for _, s := range probe.Tools() {
		specs[s.Name] = s
	}
	require.NoError(t, probe.Close())
	require.NoError(t, os.RemoveAll(filepath.Join(template, ".git", "cmdbridge")))
	// Each tool's fresh copy is written from memory.
	tree, err := commandstest.ReadTree(template)
	require.NoError(t, err)

	// One kernel serves the whole walk; each tool starts from a fresh copy of the
	// template in its workspace (the state directory, .git/cmdbridge, stays).
	ws := filepath.Join(t.TempDir(), "ws")
	require.NoError(t, tree.Write(ws))
	var k *kernel.Kernel
	w := &walkState{t: t, ws: ws, canary: canary}
	// open starts a kernel with a fresh evidence log: at the start, and again after a
	// call broke the log (then the kernel refuses every later call, rightly).
	open := func() {
		if k != nil {
			_ = k.Close()
		}
		evidenceDir := t.TempDir()
		k = newWalkKernel(t, ws, bin, evidenceDir)
		w.receipts, w.log = filepath.Join(evidenceDir, "receipts.jsonl"), nil
	}
	open()
	t.Cleanup(func() { _ = k.Close() })
	tokenKey := k.State().Path("token.key")
	require.NoError(t, os.WriteFile(tokenKey, []byte("0123456789abcdef0123456789abcdef"), 0o600))
	w.tokenKey, w.key = tokenKey, mustRead(t, tokenKey)

	var (
		cases, refused, reached int
		perLane                 = map[string]int{}
		failures                []string
		start                   = time.Now()
	)
	fail := func(format string, args ...any) { failures = append(failures, fmt.Sprintf(format, args...)) }
	for _, mt := range tools {
		spec := specs[mt.Name]
		props := stringProps(spec.InputSchema)
		if len(props) == 0 {
			continue
		}
		cmd, isCommand := commands.Default.Lookup(mt.Name)
		positional, passthrough := map[string]bool{}, map[string]bool{}
		if isCommand {
			positional, passthrough = argvWords(t, cmd, spec.InputSchema)
		}
		for prop := range positional {
			if !passthrough[prop] && !refusesOptions(spec.InputSchema.Properties[prop]) {
				fail("%s: positional %s accepts a value beginning with \"-\" (no enum, no tool.OperandPattern)", mt.Name, prop)
			}
		}

		resetWorkspace(t, ws, tree)
		if spec.Annotations.ReadOnlyHint {
			w.tree = treeWithGit(t, ws)
		}
		base := baseInput(spec)

		call := func(lane, label string, input map[string]any, refuse string) {
			cases++
			perLane[lane]++
			raw, err := json.Marshal(input)
			require.NoError(t, err)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			res := k.Call(ctx, kernel.Request{Tool: mt.Name, Input: raw, Caller: kernel.WorkspaceCaller("walk"), Lane: lane})
			cancel()
			where := fmt.Sprintf("%s %s %s %s", mt.Name, lane, label, raw)
			code := ""
			if res.Output.Error != nil {
				code = res.Output.Error.Code
			}
			switch code {
			case tool.CodeInvalidInput, tool.CodeApprovalRequired, tool.CodePolicyDenied, tool.CodeScopeDenied, tool.CodeToolDisabled:
				refused++
			default:
				reached++
			}
			if refuse != "" {
				if code != tool.CodeInvalidInput {
					fail("%s: want INVALID_INPUT at %s, got %q (success %v)", where, refuse, code, res.Output.Success)
				} else if d, _ := res.Output.Error.Details.(map[string]any); d["path"] != refuse {
					fail("%s: INVALID_INPUT at %v, want %s", where, d["path"], refuse)
				}
			}
			if code == tool.CodeExecutionFailed {
				fail("%s: EXECUTION_FAILED: %s", where, res.Output.Error.Message)
			}
			problems, logBroken := w.check(spec.Annotations.ReadOnlyHint)
			for _, problem := range problems {
				fail("%s: %s", where, problem)
			}
			if logBroken {
				open()
			}
		}

		lanes := mt.Lanes
		var combined map[string]any // the subprocess lane's one call with every flag value
		for _, prop := range props {
			ps := spec.InputSchema.Properties[prop]
			refuse := ""
			if refusesOptions(ps) {
				refuse = "/" + prop
				if ps.Type == "array" {
					refuse += "/0"
				}
			}
			every := positional[prop] || refuse != ""
			for _, lane := range lanes {
				if lane == kernel.LaneSandbox {
					continue
				}
				n := cases
				payloads := optionPayloads(canary, tokenKey, w.receipts, n)
				switch {
				case lane == kernel.LaneSubprocess && !every:
					if combined == nil {
						combined = clone(base)
					}
					combined[prop] = withValue(ps, payloads[len(combined)%len(payloads)])
					continue
				case !every:
					payloads = payloads[n%len(payloads) : n%len(payloads)+1]
				}
				for i, p := range payloads {
					in := clone(base)
					in[prop] = withValue(ps, p)
					call(lane, fmt.Sprintf("%s[%d]", prop, i), in, refuse)
				}
			}
		}
		if combined != nil && len(positional) > 0 {
			call(kernel.LaneSubprocess, "every flag value", combined, "")
		}
	}
	elapsed := time.Since(start)
	t.Logf("%d tool×property×payload×lane call(s) %v: %d refused before any lane ran, %d reached a lane, in %s",
		cases, perLane, refused, reached, elapsed.Round(time.Millisecond))
	assert.Greater(t, reached, 150, "enough calls must reach a lane, or the walk proves little")
	problems := len(failures)
	if problems > 60 {
		failures = append(failures[:60], fmt.Sprintf("… and %d more", problems-60))
	}
	assert.Empty(t, failures, "%d problem(s):\n%s", problems, strings.Join(failures, "\n"))
}

// walkState is what one tool's calls must leave as it was.
type walkState struct {
	t                              *testing.T
	ws, canary, tokenKey, receipts string
	key, log                       []byte
	tree                           string
}

// check compares the world with the last call's, and remembers it for the next;
// logBroken says the evidence log was not simply appended to.
func (w *walkState) check(readOnly bool) (problems []string, logBroken bool) {
	if entries, err := os.ReadDir(w.canary); err != nil || len(entries) > 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
			_ = os.Remove(filepath.Join(w.canary, e.Name()))
		}
		problems = append(problems, fmt.Sprintf("the canary directory holds %v (%v)", names, err))
	}
	if key := mustRead(w.t, w.tokenKey); !bytes.Equal(key, w.key) {
		problems = append(problems, "token.key changed")
		require.NoError(w.t, os.WriteFile(w.tokenKey, w.key, 0o600))
	}
	log := mustRead(w.t, w.receipts)
	if len(log) <= len(w.log) || !bytes.HasPrefix(log, w.log) {
		problems = append(problems, fmt.Sprintf("the evidence log did not just grow (%d → %d bytes)", len(w.log), len(log)))
		logBroken = true
	}
	w.log = log
	if readOnly {
		tree := treeWithGit(w.t, w.ws)
		if tree != w.tree {
			problems = append(problems, "a read-only call changed the workspace:\n"+lineDiff(w.tree, tree))
		}
		w.tree = tree
	}
	return problems, logBroken
}

// resetWorkspace makes ws a copy of template again, its state directory aside.
func resetWorkspace(t *testing.T, ws string, template *commandstest.Tree) {
	t.Helper()
	for _, dir := range []string{ws, filepath.Join(ws, ".git")} {
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			if e.Name() == ".git" || (dir != ws && e.Name() == "cmdbridge") {
				continue
			}
			require.NoError(t, os.RemoveAll(filepath.Join(dir, e.Name())))
		}
	}
	require.NoError(t, template.Write(ws))
}

// newWalkKernel is a kernel over the corpus in ws that allows every call, records
// evidence in evidenceDir, and runs the subprocess lane with bin.
func newWalkKernel(t *testing.T, ws, bin, evidenceDir string) *kernel.Kernel {
	t.Helper()
	env := pinnedEnv(ws)
	k, err := assemble.Kernel(assemble.Config{
		Config: kernel.Config{
			Workspace: ws,
			Policy:    []kernel.Rule{{Tool: "*", Decision: kernel.Allow}},
			Evidence:  kernel.EvidenceConfig{Dir: evidenceDir, Sync: evidence.SyncBuffered},
			LookupEnv: func(k string) (string, bool) {
				if v, ok := env[k]; ok {
					return v, true
				}
				return os.LookupEnv(k)
			},
		},
		Commands: commands.Default,
		Native:   nativetools.Default,
		Legacy:   adapter.Config{Binary: bin, Env: env},
		Runtime:  delivery.ToolRuntime,
	})
	require.NoError(t, err)
	return k
}

// stringProps are the properties that can carry a string: strings and string lists.
func stringProps(s *jsonschema.Schema) []string {
	var out []string
	for name, p := range s.Properties {
		if p.Type == "string" || (p.Type == "array" && p.Items != nil && p.Items.Type == "string") {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// argvWords finds, by building argv, the properties a command receives as words of
// their own after "--" (positionals and the passthrough) rather than as flag values.
func argvWords(t *testing.T, c legacy.Command, s *jsonschema.Schema) (words, passthrough map[string]bool) {
	t.Helper()
	words, passthrough = map[string]bool{}, map[string]bool{}
	const mark = "MARK-7f3a"
	for _, prop := range stringProps(s) {
		argv, err := adapter.Argv(c, json.RawMessage(fmt.Sprintf(`{%q:%s}`, prop, mustJSON(t, withValue(s.Properties[prop], mark)))))
		// Positionals follow the "--" Argv writes before them; a flag's value may be a
		// word of its own too, but before it.
		if i, end := slices.Index(argv, mark), slices.Index(argv, "--"); err == nil && i >= 0 && end >= 0 && i > end {
			words[prop] = true
		}
	}
	args, _ := c.New().Metadata[convention.MetaArgs].([]map[string]any)
	for _, a := range args {
		if p, _ := a["passthrough"].(bool); p {
			passthrough[tool.PropertyName(a["name"].(string))] = true
		}
	}
	return words, passthrough
}

// refusesOptions: the property's values are an enum or operands.
func refusesOptions(p *jsonschema.Schema) bool {
	if p.Type == "array" && p.Items != nil {
		p = p.Items
	}
	return len(p.Enum) > 0 || p.Pattern == tool.OperandPattern
}

// baseInput is the smallest input the tool's schema accepts that we can find: its
// required properties with sample values, else every property (schematest.FullInput),
// else the required ones anyway (the calls are then refused and counted as such).
func baseInput(spec tool.Spec) map[string]any {
	full := schematest.FullInput(spec.InputSchema)
	required := map[string]any{}
	for _, r := range spec.InputSchema.Required {
		required[r] = full[r]
	}
	for _, in := range []map[string]any{required, full} {
		v, _, bad := tool.DecodeInput(mustMarshal(in))
		if bad == nil && spec.CheckInput(v) == nil {
			return in
		}
	}
	return required
}

func withValue(p *jsonschema.Schema, v string) any {
	if p.Type == "array" {
		return []any{v}
	}
	return v
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		out[k] = v
	}
	return out
}

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func mustRead(t *testing.T, path string) []byte {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	return b
}

// treeWithGit lists every file of dir, .git included (its state directory aside: the
// key is checked on its own, and a write lock is a writing call's), with its content
// hash, one per line, sorted.
func treeWithGit(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			if rel == filepath.Join(".git", "cmdbridge") {
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprintf("%x %s", sha256.Sum256(data), filepath.ToSlash(rel)))
		return nil
	}))
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

// lineDiff lists the lines only in a (-) and only in b (+).
func lineDiff(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ina, inb := in(a), in(b)
	var out []string
	for l := range ina {
		if !inb[l] {
			out = append(out, "- "+l)
		}
	}
	for l := range inb {
		if !ina[l] {
			out = append(out, "+ "+l)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

func runGitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "git %v: %s", args, out)
}

package all_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/adapter"
	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/commandstest"
	"github.com/rogpeppe/go-internal/txtar"
)

// acmeDir is the real-format fixture workspace both lanes run on.
var acmeDir = filepath.Join("..", "..", "testdata", "workspaces", "acme")

// laneArgv is the representative argv of a command on the acme workspace. Commands not
// listed run with --json alone: for most read commands that is a full run, for commands
// with required flags it is the usage envelope, which both lanes must agree on too.
var laneArgv = map[string][][]string{
	"validate":        {{"--json"}, {"--id", "WU-63"}},
	"lane:health":     {{"--json", "--verbose"}, {}},
	"lane:suggest":    {{"--json"}},
	"gates":           {{"--json"}, {"--docs-only"}},
	"backlog:prune":   {{"--json"}, {"--execute", "--stale-days-ready", "40"}},
	"state:bootstrap": {{"--json"}, {"--execute", "--force", "--json"}},
	"wu:deps":         {{"--json", "WU-40"}, {"--direction", "up", "WU-41"}},
	"config:get":      {{"--key", "software_delivery.lanes", "--json"}},
	"config:set":      {{"--key", "software_delivery.git.push", "--value", "false"}},
	"file:read":       {{"--path", "docs/README.md", "--json"}},
	"file:write":      {{"--path", "notes/new.md", "--content", "hello"}},
}

// pinnedEnv is what both lanes see, as the script harness pins it (corpus §2.5).
func pinnedEnv(home string) map[string]string {
	return map[string]string{
		"DELIVERY_NOW": "2026-03-01T10:00:00.000Z", "DELIVERY_SEED": "cmdbridge",
		"DELIVERY_OWNER": "tester@example.com", "GIT_CONFIG_GLOBAL": "/dev/null",
		"GIT_CONFIG_NOSYSTEM": "1", "HOME": home, "USER": "tester",
	}
}

// TestLanesAgree runs every registered command, with its representative argv, as a real
// process (the delivery binary of commandstest) and through
// adapter.Run, each on its own copy of the acme workspace (a git repository with one
// pinned commit), and reports every difference in stdout, stderr, exit code and the
// resulting file tree at once.
func TestLanesAgree(t *testing.T) {
	bin := commandstest.Exe(t)
	dir := t.TempDir()
	copyTree(t, acmeDir, dir)
	gitCommitAll(t, dir)
	// Every run's two copies are written from memory: 95 runs copy it 190 times.
	template, err := commandstest.ReadTree(dir)
	require.NoError(t, err)

	var diffs []string
	runs := 0
	for _, c := range commands.All() {
		argvs, ok := laneArgv[c.Name]
		if !ok {
			argvs = [][]string{{"--json"}}
		}
		for _, argv := range argvs {
			runs++
			label := strings.TrimSpace(c.Name + " " + strings.Join(argv, " "))
			procDir, bridgeDir := filepath.Join(t.TempDir(), "ws"), filepath.Join(t.TempDir(), "ws")
			require.NoError(t, template.Write(procDir))
			require.NoError(t, template.Write(bridgeDir))

			env := pinnedEnv(procDir)
			cmd := exec.Command(bin, append([]string{c.Name}, argv...)...)
			cmd.Dir = procDir
			cmd.Env = os.Environ()
			for k, v := range env {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			var pout, perr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &pout, &perr
			pcode := 0
			if err := cmd.Run(); err != nil {
				ee, ok := err.(*exec.ExitError)
				require.True(t, ok, "%s: %v", label, err)
				pcode = ee.ExitCode()
			}
			res := adapter.Run(context.Background(), c, argv, adapter.Config{Dir: bridgeDir, Env: pinnedEnv(bridgeDir)})

			norm := func(b []byte, dir string) string { return strings.ReplaceAll(string(b), dir, "$WORK") }
			if a, b := norm(pout.Bytes(), procDir), norm(res.Stdout, bridgeDir); a != b {
				diffs = append(diffs, fmt.Sprintf("%s: stdout differs\n--- process\n%s--- adapter\n%s", label, a, b))
			}
			if a, b := norm(perr.Bytes(), procDir), norm(res.Stderr, bridgeDir); a != b {
				diffs = append(diffs, fmt.Sprintf("%s: stderr differs\n--- process\n%s--- adapter\n%s", label, a, b))
			}
			if pcode != res.ExitCode {
				diffs = append(diffs, fmt.Sprintf("%s: exit code %d (process) vs %d (adapter)", label, pcode, res.ExitCode))
			}
			if a, b := treeDigest(t, procDir), treeDigest(t, bridgeDir); a != b {
				diffs = append(diffs, fmt.Sprintf("%s: resulting files differ\n--- process\n%s--- adapter\n%s", label, a, b))
			}
		}
	}
	t.Logf("%d command(s), %d run(s) per lane", len(commands.All()), runs)
	require.NotZero(t, runs)
	assert.Empty(t, diffs, "%d difference(s) between the lanes:\n%s", len(diffs), strings.Join(diffs, "\n"))
}

// TestFixtureScriptsEmbedAcme keeps testdata/script/fixture/*.txtar in sync with the acme
// workspace: the harness gives scripts no path to testdata/workspaces, so each script
// embeds the workspace as acme/... files, and this test checks they are byte-identical.
func TestFixtureScriptsEmbedAcme(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("..", "..", "testdata", "script", "fixture", "*.txtar"))
	require.NoError(t, err)
	require.NotEmpty(t, scripts)
	want := map[string]string{}
	require.NoError(t, filepath.WalkDir(acmeDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(acmeDir, p)
		want["acme/"+filepath.ToSlash(rel)] = string(data)
		return err
	}))
	for _, s := range scripts {
		ar, err := txtar.ParseFile(s)
		require.NoError(t, err)
		got := map[string]string{}
		for _, f := range ar.Files {
			if strings.HasPrefix(f.Name, "acme/") {
				got[f.Name] = string(f.Data)
			}
		}
		assert.Equal(t, want, got, "%s must embed testdata/workspaces/acme exactly", filepath.Base(s))
	}
}

// copyTree copies the regular files and directories of src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	}))
}

// gitCommitAll makes dir a repository on main with one commit of everything, at the
// pinned date, so both lanes' copies start from the same SHA.
func gitCommitAll(t *testing.T, dir string) {
	t.Helper()
	for _, argv := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "user.name=Tester", "-c", "user.email=tester@example.com", "-c", "commit.gpgsign=false",
			"commit", "-q", "-m", "initial"},
	} {
		cmd := exec.Command("git", argv...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir,
			"GIT_AUTHOR_DATE=2026-03-01T10:00:00Z", "GIT_COMMITTER_DATE=2026-03-01T10:00:00Z")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %s: %s", strings.Join(argv, " "), out)
	}
}

// treeDigest lists every file outside .git with its content hash, one per line, sorted.
func treeDigest(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		lines = append(lines, fmt.Sprintf("%x %s", sha256.Sum256(bytes.ReplaceAll(data, []byte(dir), []byte("$WORK"))), filepath.ToSlash(rel)))
		return nil
	}))
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

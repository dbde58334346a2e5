package doccheck

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blockTimeout bounds one block; a server block's wait for its URL is bounded apart.
const blockTimeout = 90 * time.Second

// TestDocExamples runs every shell block of README.md and docs/*.md as printed (see the
// package documentation for the directives) and fails on a block that fails.
func TestDocExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries and runs the documentation's examples")
	}
	root := repoRoot(t)
	bin := buildBinaries(t, root)
	built := map[string]fileStamp{}
	for _, name := range []string{"cmdbridge", "delivery"} {
		built[name] = stampOf(t, filepath.Join(bin, name))
	}
	var ran, skipped int
	reasons := map[string][]string{}
	for _, p := range pages(t, root) {
		blocks, _ := p.blocks()
		var todo []block
		for _, b := range blocks {
			if b.lang == "" {
				t.Errorf("%s: a fence without a language; name it (```sh for commands, ```text for diagrams and output)", b.where())
			}
			if !b.shell() {
				continue
			}
			if why := skipReason(b); why != "" {
				skipped++
				reasons[why] = append(reasons[why], b.where())
				continue
			}
			todo = append(todo, b)
		}
		if len(todo) == 0 {
			continue
		}
		t.Run(p.rel, func(t *testing.T) {
			s := newSession(t, root, bin)
			defer s.stop(t)
			// Each page starts from the binaries as built, whatever an earlier page's
			// blocks rebuilt in its own bin/.
			defer func() {
				for _, name := range []string{"cmdbridge", "delivery"} {
					assert.Equal(t, built[name], stampOf(t, filepath.Join(bin, name)), "%s rebuilt the shared %s", p.rel, name)
				}
			}()
			for _, b := range todo {
				start, cpu := time.Now(), s.cpu
				if err := s.run(t, b); err != nil {
					t.Errorf("%s: the example does not run as printed: %v", b.where(), err)
					continue
				}
				ran++
				t.Logf("%s: ran (%s, %s CPU)", b.where(), time.Since(start).Round(time.Millisecond), (s.cpu - cpu).Round(time.Millisecond))
			}
		})
	}
	whys := make([]string, 0, len(reasons))
	for why := range reasons {
		whys = append(whys, why)
	}
	sort.Strings(whys)
	var report strings.Builder
	fmt.Fprintf(&report, "shell blocks: %d ran, %d skipped", ran, skipped)
	for _, why := range whys {
		fmt.Fprintf(&report, "\n  skipped %s: %s", strings.Join(reasons[why], ", "), why)
	}
	t.Log(report.String())
	require.NotZero(t, ran, "no example ran")
}

var skipRE = regexp.MustCompile(`^skip\s*\((.+)\)$`)

// skipReason is why a block is not run ("" when it runs): its skip directive, or a
// program its needs directive names that is not on PATH.
func skipReason(b block) string {
	d := b.directive
	if m := skipRE.FindStringSubmatch(d); m != nil {
		return m[1]
	}
	if rest, ok := strings.CutPrefix(d, "needs "); ok {
		for _, prog := range strings.Fields(rest) {
			if _, err := exec.LookPath(prog); err != nil {
				return "needs " + prog + ", not installed here"
			}
		}
	}
	return ""
}

// fileStamp is what a rewrite of a file changes: its size and modification time.
type fileStamp struct {
	size int64
	mod  time.Time
}

func stampOf(t *testing.T, path string) fileStamp {
	t.Helper()
	fi, err := os.Stat(path)
	require.NoError(t, err)
	return fileStamp{fi.Size(), fi.ModTime()}
}

// buildBinaries builds cmdbridge and delivery once into a temporary directory (without
// DWARF, as the blocks' own builds: see newSession).
func buildBinaries(t *testing.T, root string) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-w", "-o", dir+string(filepath.Separator), "./cmd/cmdbridge", "./cmd/delivery")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)
	return dir
}

// session is one page's shell session: a scratch copy of the repository, the state a
// block leaves for the next (variables, working directory) and the servers started.
type session struct {
	dir     string   // the scratch directory: repo/, home/, tmp/, state files
	repo    string   // the repository copy blocks start in
	env     []string // the environment every block starts with
	servers []int    // process groups of serve blocks
	n       int
	cpu     time.Duration // the CPU time of the blocks run so far (user+sys, with what they waited for)
}

func newSession(t *testing.T, root, bin string) *session {
	t.Helper()
	dir := t.TempDir()
	s := &session{dir: dir, repo: filepath.Join(dir, "repo")}
	copyRepo(t, root, s.repo)
	require.NoError(t, os.MkdirAll(filepath.Join(s.repo, "bin"), 0o755))
	// Copies, not links: a block's own `go build -o bin/ …` must replace this page's
	// binary only, never the one every other page starts from.
	for _, name := range []string{"cmdbridge", "delivery"} {
		b, err := os.ReadFile(filepath.Join(bin, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(s.repo, "bin", name), b, 0o755))
	}
	for _, d := range []string{"home", "tmp"} {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, d), 0o755))
	}
	git := exec.Command("git", "init", "-q")
	git.Dir = s.repo
	out, err := git.CombinedOutput()
	require.NoError(t, err, "%s", out)
	s.env = []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + filepath.Join(dir, "home"),
		"TMPDIR=" + filepath.Join(dir, "tmp"),
		"LANG=C.UTF-8",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Doc Check", "GIT_AUTHOR_EMAIL=doccheck@example.invalid",
		"GIT_COMMITTER_NAME=Doc Check", "GIT_COMMITTER_EMAIL=doccheck@example.invalid",
		"DOCCHECK_STATE=" + filepath.Join(dir, "state.sh"),
	}
	// The Go toolchain's own settings, for blocks that build.
	// -trimpath: what a block builds from the copy shares the build cache with the
	// binaries built from the tree (without it every package would compile again).
	// -ldflags=-w: the programs are linked without DWARF (no block debugs them), which
	// takes a third off each link, and the blocks link a dozen programs.
	goflags := strings.Fields(os.Getenv("GOFLAGS"))
	if !slices.Contains(goflags, "-trimpath") {
		goflags = append(goflags, "-trimpath")
	}
	if !slices.ContainsFunc(goflags, func(f string) bool { return strings.HasPrefix(f, "-ldflags") }) {
		goflags = append(goflags, "-ldflags=-w")
	}
	s.env = append(s.env, "GOFLAGS="+strings.Join(goflags, " "))
	for _, k := range []string{"GOROOT", "GOPATH", "GOPROXY", "GONOSUMDB", "GOTOOLCHAIN"} {
		if v, ok := os.LookupEnv(k); ok {
			s.env = append(s.env, k+"="+v)
		}
	}
	caches, err := goCaches()
	require.NoError(t, err)
	s.env = append(s.env, caches...)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "state.sh"), []byte("cd "+shellQuote(s.repo)+"\n"), 0o644))
	return s
}

// goCaches are GOCACHE and GOMODCACHE as the go command sees them (one go env for the
// test binary).
var goCaches = sync.OnceValues(func() ([]string, error) {
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		return nil, err
	}
	v := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(v) != 2 {
		return nil, fmt.Errorf("go env GOCACHE GOMODCACHE printed %q", out)
	}
	return []string{"GOCACHE=" + v[0], "GOMODCACHE=" + v[1]}, nil
})

// copyRepo copies the tracked files (git ls-files; every file but .git and bin when git
// cannot list them) of root into dst.
func copyRepo(t *testing.T, root, dst string) {
	t.Helper()
	var files []string
	cmd := exec.Command("git", "ls-files", "-z")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		for _, f := range strings.Split(string(out), "\x00") {
			if f != "" {
				files = append(files, f)
			}
		}
	} else {
		require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			if d.IsDir() && (rel == ".git" || rel == "bin") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				files = append(files, rel)
			}
			return nil
		}))
	}
	for _, f := range files {
		src := filepath.Join(root, f)
		info, err := os.Lstat(src)
		if err != nil {
			continue // deleted in the work tree
		}
		target := filepath.Join(dst, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(target), 0o755))
		if info.Mode()&fs.ModeSymlink != 0 {
			link, err := os.Readlink(src)
			require.NoError(t, err)
			require.NoError(t, os.Symlink(link, target))
			continue
		}
		b, err := os.ReadFile(src)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(target, b, info.Mode().Perm()))
	}
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// The prologue restores the state the previous block left; the epilogue, on any exit,
// saves the variables the blocks set (not bash's own, nor readonly ones) and the working
// directory. It declares them all with one declare -p and one grep (not a pipeline per
// variable: some sixty processes per block).
const (
	prologue = `. "$DOCCHECK_STATE"
set -e -o pipefail
`
	epilogue = `__doccheck_save() {
  {
    __vs=()
    for __v in $(compgen -v); do
      case $__v in
        BASH*|PIPESTATUS|FUNCNAME|GROUPS|RANDOM|SRANDOM|SECONDS|LINENO|SHELLOPTS|PPID|UID|EUID|HOSTNAME|HOSTTYPE|MACHTYPE|OSTYPE|SHLVL|_|__*|DIRSTACK|EPOCH*|COMP*|OPTIND|OPTARG|OPTERR|IFS|PS?|HISTCMD|PWD|OLDPWD|DOCCHECK_STATE) continue ;;
      esac
      __vs[${#__vs[@]}]=$__v
    done
    if [ ${#__vs[@]} -gt 0 ]; then
      declare -p "${__vs[@]}" 2>/dev/null | grep -v '^declare -[a-zA-Z]*r' || true
    fi
    printf 'cd %q\n' "$PWD"
  } >"$DOCCHECK_STATE.next" && mv "$DOCCHECK_STATE.next" "$DOCCHECK_STATE"
}
trap __doccheck_save EXIT
`
)

// run runs one block in the session.
func (s *session) run(t *testing.T, b block) error {
	t.Helper()
	s.n++
	text := b.commands()
	serve := b.directive == "serve"
	var served string
	if serve {
		lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
		last := len(lines) - 1
		for last >= 0 && (strings.TrimSpace(lines[last]) == "" || strings.HasPrefix(strings.TrimSpace(lines[last]), "#")) {
			last--
		}
		if last < 0 {
			return fmt.Errorf("a serve block without a command")
		}
		served = filepath.Join(s.dir, fmt.Sprintf("serve-%d", s.n))
		// A group on lines of its own, so a trailing comment stays a comment.
		text = strings.Join(lines[:last], "\n") + "\n{\n" + lines[last] + "\n} >" +
			shellQuote(served+".out") + " 2>" + shellQuote(served+".err") + " </dev/null &\n"
	}
	ctx, cancel := context.WithTimeout(context.Background(), blockTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", epilogue+prologue+text)
	cmd.Dir = s.repo
	cmd.Env = s.env
	cmd.Stdin = nil
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if cmd.ProcessState != nil {
		s.cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if cmd.Process != nil {
		if serve {
			s.servers = append(s.servers, cmd.Process.Pid)
		} else {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // anything it left behind
		}
	}
	if err != nil {
		return fmt.Errorf("%v\n%s", err, tail(out.String()))
	}
	if !serve {
		return nil
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, _ := os.ReadFile(served + ".out")
		if line, _, ok := strings.Cut(string(b), "\n"); ok {
			if !strings.HasPrefix(line, "http://") && !strings.HasPrefix(line, "https://") {
				return fmt.Errorf("the server printed %q, not its URL", line)
			}
			f, err := os.OpenFile(filepath.Join(s.dir, "state.sh"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(f, "URL=%s\n", shellQuote(line))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return err
		}
		if time.Now().After(deadline) {
			e, _ := os.ReadFile(served + ".err")
			return fmt.Errorf("the server printed no URL within 30s\n%s", tail(string(e)))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends the servers the page started: SIGTERM, then SIGKILL after 10 s. A server
// that is gone already died while the page's blocks ran: the page fails.
func (s *session) stop(t *testing.T) {
	for _, pg := range s.servers {
		if syscall.Kill(-pg, 0) != nil {
			t.Errorf("a server a block of this page started exited before the page's blocks ended")
		}
		_ = syscall.Kill(-pg, syscall.SIGTERM)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, pg := range s.servers {
		for syscall.Kill(-pg, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if syscall.Kill(-pg, 0) == nil {
			t.Errorf("a server of %s ignored SIGTERM for 10s", s.repo)
			_ = syscall.Kill(-pg, syscall.SIGKILL)
		}
	}
}

// tail is the end of a block's output, enough to see why it failed.
func tail(s string) string {
	const max = 4000
	if len(s) > max {
		return "…" + s[len(s)-max:]
	}
	return s
}

package gitrepo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdbridge/cmdbridge/internal/gittest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gitLayout builds, under one temp directory, every repository shape discovery meets, each
// made by git itself, and returns that directory.
func gitLayout(t testing.TB) string {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	git := func(dir string, args ...string) {
		gittest.Run(t, dir, args...)
	}
	mkdir := func(rel string) { require.NoError(t, os.MkdirAll(at(rel), 0o755)) }
	symlink := func(target, rel string) { require.NoError(t, os.Symlink(at(target), at(rel))) }
	write := func(rel, content string) { require.NoError(t, os.WriteFile(at(rel), []byte(content), 0o644)) }

	mkdir("repo/sub/deep")
	git(at("repo"), "init", "-q", "-b", "main")
	git(at("repo"), "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init")
	// Linked worktrees: beside the repository, and inside it as delivery lays them out.
	git(at("repo"), "worktree", "add", "-q", "-b", "side", "../wt")
	mkdir("wt/sub")
	git(at("repo"), "worktree", "add", "-q", "-b", "lane/x/wu-1", "worktrees/x-wu-1")
	mkdir("repo/worktrees/x-wu-1/sub")
	// A linked worktree whose .git file names its git directory relatively.
	git(at("repo"), "worktree", "add", "-q", "-b", "rel", "../relwt")
	write("relwt/.git", "gitdir: ../repo/.git/worktrees/relwt\n")
	// A repository whose .git is a file naming a separate git directory relatively.
	mkdir("sep")
	git(at("sep"), "init", "-q", "-b", "main")
	require.NoError(t, os.Rename(at("sep/.git"), at("sep.git")))
	write("sep/.git", "gitdir: ../sep.git\n")
	mkdir("sep/sub")
	// A repository nested in another.
	mkdir("repo/nested/inner")
	git(at("repo/nested"), "init", "-q", "-b", "main")
	// Symlinked paths.
	symlink("repo", "link-repo")
	symlink("repo/sub", "link-sub")
	symlink("wt", "link-wt")
	symlink("wt/sub", "link-wt-sub")
	symlink("repo/worktrees/x-wu-1", "repo/link-inner-wt")
	// Layouts left to git.
	git(root, "init", "-q", "--bare", "-b", "main", "bare.git")
	mkdir("cw")
	git(at("cw"), "init", "-q", "-b", "main")
	git(at("cw"), "config", "core.worktree", at("cw"))
	// Per-worktree configuration: plain in one repository (and its linked worktree), a
	// core.worktree in the other's config.worktree.
	mkdir("pw")
	git(at("pw"), "init", "-q", "-b", "main")
	git(at("pw"), "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "init")
	git(at("pw"), "config", "extensions.worktreeConfig", "true")
	git(at("pw"), "config", "--worktree", "user.name", "per-worktree")
	git(at("pw"), "worktree", "add", "-q", "-b", "side", "../pwwt")
	git(at("pwwt"), "config", "--worktree", "core.sparseCheckout", "false")
	mkdir("pwcw")
	git(at("pwcw"), "init", "-q", "-b", "main")
	git(at("pwcw"), "config", "extensions.worktreeConfig", "true")
	git(at("pwcw"), "config", "--worktree", "core.worktree", at("pwcw"))
	mkdir("repo/emptydot/.git")
	mkdir("plain/sub")
	return root
}

func TestDiscoverGitMatchesGit(t *testing.T) {
	isolateGit(t)
	ctx := processEnv()
	root := gitLayout(t)

	const (
		none     = discoverNone
		worktree = discoverWorkTree
		askGit   = discoverAskGit
	)
	cases := []struct {
		name string
		dir  string // relative to the layout
		env  map[string]string
		want discovery
		// wantMain is MainCheckout's answer relative to the layout; "=" is dir itself.
		wantMain string
		wantIn   bool
	}{
		{name: "plain repo", dir: "repo", want: worktree, wantMain: "=", wantIn: true},
		{name: "subdirectory", dir: "repo/sub/deep", want: worktree, wantMain: "=", wantIn: true},
		{name: "linked worktree", dir: "wt", want: worktree, wantMain: "repo", wantIn: true},
		{name: "worktree subdirectory", dir: "wt/sub", want: worktree, wantMain: "repo/sub", wantIn: true},
		{name: "worktree inside the repo", dir: "repo/worktrees/x-wu-1", want: worktree, wantMain: "repo", wantIn: true},
		{name: "subdirectory of a worktree inside the repo", dir: "repo/worktrees/x-wu-1/sub", want: worktree, wantMain: "repo/sub", wantIn: true},
		{name: "worktree with a relative gitdir", dir: "relwt", want: worktree, wantMain: "repo", wantIn: true},
		{name: "git file with a relative gitdir", dir: "sep", want: worktree, wantMain: "=", wantIn: true},
		{name: "subdirectory under a git file", dir: "sep/sub", want: worktree, wantMain: "=", wantIn: true},
		{name: "not a repo", dir: "plain/sub", want: none, wantMain: "=", wantIn: false},
		{name: "inside .git", dir: "repo/.git", want: askGit, wantMain: "=", wantIn: false},
		{name: "deep inside .git", dir: "repo/.git/refs/heads", want: askGit, wantMain: "=", wantIn: false},
		{name: "inside a worktree's git directory", dir: "repo/.git/worktrees/wt", want: askGit, wantMain: "=", wantIn: false},
		{name: "symlinked repo", dir: "link-repo", want: worktree, wantMain: "=", wantIn: true},
		{name: "symlinked subdirectory", dir: "link-sub", want: worktree, wantMain: "=", wantIn: true},
		// git prints the physical top level, which is not a prefix of the symlinked path:
		// the answer is the main checkout itself.
		{name: "symlinked worktree", dir: "link-wt", want: worktree, wantMain: "repo", wantIn: true},
		{name: "symlinked worktree subdirectory", dir: "link-wt-sub", want: worktree, wantMain: "repo", wantIn: true},
		{name: "symlink inside the repo to a worktree", dir: "repo/link-inner-wt", want: worktree, wantMain: "repo", wantIn: true},
		{name: "nested repo", dir: "repo/nested", want: worktree, wantMain: "=", wantIn: true},
		{name: "nested repo subdirectory", dir: "repo/nested/inner", want: worktree, wantMain: "=", wantIn: true},
		{name: "empty .git directory", dir: "repo/emptydot", want: askGit, wantMain: "=", wantIn: true},
		{name: "bare repository", dir: "bare.git", want: askGit, wantMain: "=", wantIn: false},
		{name: "core.worktree set", dir: "cw", want: askGit, wantMain: "=", wantIn: true},
		{name: "per-worktree config, plain", dir: "pw", want: worktree, wantMain: "=", wantIn: true},
		{name: "linked worktree with per-worktree config", dir: "pwwt", want: worktree, wantMain: "pw", wantIn: true},
		{name: "core.worktree in config.worktree", dir: "pwcw", want: askGit, wantMain: "=", wantIn: true},
		{name: "missing directory", dir: "missing", want: askGit, wantMain: "=", wantIn: false},
		{name: "GIT_DIR set", dir: "wt/sub", env: map[string]string{"GIT_DIR": "{root}/repo/.git"},
			want: askGit, wantMain: "=", wantIn: true},
		{name: "GIT_CEILING_DIRECTORIES set", dir: "repo/sub", env: map[string]string{"GIT_CEILING_DIRECTORIES": "{root}/repo"},
			want: askGit, wantMain: "=", wantIn: false},
		{name: "GIT_WORK_TREE set", dir: "plain", env: map[string]string{"GIT_WORK_TREE": "{root}/plain", "GIT_DIR": "{root}/repo/.git"},
			want: askGit, wantMain: "=", wantIn: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, strings.ReplaceAll(v, "{root}", root))
			}
			dir := filepath.Join(root, filepath.FromSlash(tc.dir))
			wantMain := dir
			if tc.wantMain != "=" {
				wantMain = filepath.Join(root, filepath.FromSlash(tc.wantMain))
			}

			repo, found := discoverGit(dir, os.LookupEnv)
			require.Equal(t, tc.want, found, "discovery outcome")
			oracle, ok := gitRevParse(ctx, dir, nil)
			if found == discoverWorkTree {
				require.True(t, ok, "git finds no work tree where discovery does")
				assert.Equal(t, oracle, repo, "the paths git prints")
			}
			if found == discoverNone {
				assert.False(t, ok, "git finds a repository where discovery does not: %+v", oracle)
			}

			assert.Equal(t, mainCheckoutGit(ctx, dir, nil), MainCheckout(ctx, dir, os.LookupEnv), "MainCheckout against git")
			assert.Equal(t, wantMain, MainCheckout(ctx, dir, os.LookupEnv), "MainCheckout")
			assert.Equal(t, inWorkTreeGit(ctx, dir, nil), InWorkTree(ctx, dir), "InWorkTree against git")
			assert.Equal(t, tc.wantIn, InWorkTree(ctx, dir), "InWorkTree")
		})
	}
}

func TestParseGitFile(t *testing.T) {
	cases := []struct {
		name, data, want string
		ok               bool
	}{
		{"absolute", "gitdir: /r/.git/worktrees/a\n", "/r/.git/worktrees/a", true},
		{"relative with CRLF", "gitdir: ../r/.git\r\n", "../r/.git", true},
		{"no newline", "gitdir: x", "x", true},
		{"space kept inside the path", "gitdir: a b\n", "a b", true},
		{"wrong prefix", "git-dir: x\n", "", false},
		{"no space after colon", "gitdir:x\n", "", false},
		{"empty path", "gitdir: \n", "", false},
		{"two lines", "gitdir: a\nb\n", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := parseGitFile([]byte(tc.data))
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestPlainConfig(t *testing.T) {
	cases := []struct {
		name, config string
		plain        bool
	}{
		{"git init", "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n", true},
		{"remote and branch", "[remote \"origin\"]\n\turl = https://example.com/worktree.git\n[branch \"main\"]\n\tremote = origin\n", true},
		{"core.worktree", "[core]\n\tworktree = ../../../sub\n", false},
		{"worktree key any case", "[Core]\n\tWorkTree=/x\n", false},
		{"key on the header line", "[core] worktree = /x\n", false},
		{"per-worktree config", "[extensions]\n\tworktreeConfig = true\n", true},
		{"per-worktree config off", "[extensions]\n\tworktreeConfig = false\n", true},
		{"worktreeConfig outside extensions", "[core]\n\tworktreeConfig = true\n", false},
		{"bare true", "[core]\n\tbare = true\n", false},
		{"bare without value", "[core]\n\tbare\n", false},
		{"bare false with comment", "[core]\n\tbare = false ; not bare\n", true},
		{"bare in another section", "[alias]\n\tbare = true\n", true},
		{"format version 1", "[core]\n\trepositoryformatversion = 1\n", true},
		{"unknown format version", "[core]\n\trepositoryformatversion = 2\n", false},
		{"include", "[include]\n\tpath = other\n", false},
		{"includeIf", "[includeIf \"gitdir:/x/\"]\n\tpath = other\n", false},
		{"continued line", "[core]\n\tx = a \\\n\tworktree\n", false},
		{"broken header", "[core\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config")
			require.NoError(t, os.WriteFile(path, []byte(tc.config), 0o644))
			plain, perWorktree := plainConfig(path)
			assert.Equal(t, tc.plain, plain)
			assert.Equal(t, tc.name == "per-worktree config", perWorktree, "extensions.worktreeConfig")
		})
	}
	plain, _ := plainConfig(filepath.Join(t.TempDir(), "missing"))
	assert.True(t, plain, "a missing config is git's defaults")
}

func TestValidHead(t *testing.T) {
	cases := []struct {
		name, head string
		valid      bool
	}{
		{"symbolic ref", "ref: refs/heads/main\n", true},
		{"symbolic ref with tab", "ref:\trefs/heads/main\n", true},
		{"detached sha1", "0123456789abcdef0123456789abcdef01234567\n", true},
		{"detached sha256", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n", true},
		{"ref outside refs/", "ref: HEAD\n", false},
		{"short id", "0123456\n", false},
		{"not hex", "0123456789abcdef0123456789abcdef0123456z\n", false},
		{"empty", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "HEAD")
			require.NoError(t, os.WriteFile(path, []byte(tc.head), 0o644))
			assert.Equal(t, tc.valid, validHead(path))
		})
	}
	assert.False(t, validHead(filepath.Join(t.TempDir(), "HEAD")), "a missing HEAD")
}

// BenchmarkMainCheckout compares discovery by reading files with the git subprocess it
// replaces, from a subdirectory of a linked worktree (the case that maps to another
// checkout) and from the main checkout.
func BenchmarkMainCheckout(b *testing.B) {
	b.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	b.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	ctx := processEnv()
	root := gitLayout(b)
	for _, dir := range []string{"repo/worktrees/x-wu-1/sub", "repo"} {
		abs := filepath.Join(root, filepath.FromSlash(dir))
		want := mainCheckoutGit(ctx, abs, nil)
		require.Equal(b, want, MainCheckout(ctx, abs, os.LookupEnv))
		b.Run("pure/"+dir, func(b *testing.B) {
			for b.Loop() {
				if MainCheckout(ctx, abs, os.LookupEnv) != want {
					b.Fatal("wrong main checkout")
				}
			}
		})
		b.Run("subprocess/"+dir, func(b *testing.B) {
			for b.Loop() {
				if mainCheckoutGit(ctx, abs, nil) != want {
					b.Fatal("wrong main checkout")
				}
			}
		})
	}
}

// BenchmarkInWorkTree compares InWorkTree with the git subprocess it replaces.
func BenchmarkInWorkTree(b *testing.B) {
	b.Setenv("GIT_CONFIG_GLOBAL", "/dev/null")
	b.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	ctx := processEnv()
	abs := filepath.Join(gitLayout(b), "repo", "sub", "deep")
	b.Run("pure", func(b *testing.B) {
		for b.Loop() {
			if !InWorkTree(ctx, abs) {
				b.Fatal("not in a work tree")
			}
		}
	})
	b.Run("subprocess", func(b *testing.B) {
		for b.Loop() {
			if !inWorkTreeGit(ctx, abs, nil) {
				b.Fatal("not in a work tree")
			}
		}
	})
}

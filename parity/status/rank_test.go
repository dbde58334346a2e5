package status_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/parity/status"
)

func rankNames(list []status.Candidate) []string {
	var out []string
	for _, c := range list {
		out = append(out, c.Name)
	}
	return out
}

func TestRankScoresAndOrders(t *testing.T) {
	native := []string{"delivery.ReadWU", "delivery.Errorf", "ops.MemSignal"}
	facts := []status.Facts{
		// Context: a migrated command makes its package count as ported.
		{Name: "wu:status", Domain: "wu", Stage: status.StageNativeWithParity, HasNative: true, Package: "commands/wu",
			Lines: 80, Calls: []string{"delivery.ReadWU"}},
		// Small, covered, everything it calls is already called natively, ported package.
		{Name: "wu:prep", Domain: "wu", Stage: status.StageAdapter, GoldenScripts: 2, ParityScript: true,
			Source: "commands/wu/wu_prep.go", Package: "commands/wu", Lines: 60,
			Calls: []string{"delivery.ReadWU", "delivery.Errorf", "convention.WU", "delivery.ReadWU"}},
		// The same points: fewer lines first.
		{Name: "wu:tiny", Domain: "wu", Stage: status.StageAdapter, GoldenScripts: 1, ParityScript: true,
			Package: "commands/wu", Lines: 20, Calls: []string{"delivery.ReadWU"}},
		// Twice the size reference: half the size points; half its calls shared.
		{Name: "wu:repair", Domain: "wu", Stage: status.StageAdapter, GoldenScripts: 1,
			Package: "commands/wu", Lines: 2 * status.SizeReference,
			Calls: []string{"delivery.ReadWU", "delivery.AppendEvents"}},
		// No goldens, but small and sharing everything.
		{Name: "mem:cleanup", Domain: "memory", Stage: status.StageAdapter, Package: "commands/memory", Lines: 10,
			Calls: []string{"ops.MemSignal"}},
		// A quarter of the size points; nothing shared.
		{Name: "git:branch", Domain: "git", Stage: status.StageAdapter, GoldenScripts: 1, Package: "commands/files",
			Lines: 4 * status.SizeReference, Calls: []string{"delivery.Diff"}},
		// Unknown sources: no size, sharing or package points; equal scores and sizes go
		// by name.
		{Name: "git:log", Domain: "git", Stage: status.StageAdapter, GoldenScripts: 1},
		{Name: "git:diff", Domain: "git", Stage: status.StageAdapter, GoldenScripts: 1},
		// Not adapter-stage: never ranked.
		{Name: "wu:claim", Domain: "wu", Stage: status.StageShadow, HasNative: true, GoldenScripts: 5, Package: "commands/wu"},
		{Name: "wu:done", Domain: "wu", Stage: "in-progress", GoldenScripts: 5, Package: "commands/wu"},
	}
	got := status.Rank(facts, native)
	require.Equal(t, []string{"wu:tiny", "wu:prep", "wu:repair", "mem:cleanup", "git:branch", "git:diff", "git:log"}, rankNames(got))
	for i, c := range got {
		assert.Equal(t, i+1, c.Rank)
	}

	assert.Equal(t, got[0].Score, got[1].Score)
	prep := got[1]
	assert.Equal(t, status.Points{Goldens: status.ScoreGoldens, Parity: status.ScoreParity, Size: status.ScoreSize,
		Shared: status.ScoreShared, Package: status.ScorePackage}, prep.Points)
	assert.Equal(t, 100.0, prep.Score)
	assert.Equal(t, 2, prep.Calls, "convention.WU is not in a package native tools call into; ReadWU counts once")
	assert.Equal(t, []string{"delivery.Errorf", "delivery.ReadWU"}, prep.Shared)
	assert.Equal(t, 2, prep.NativeInPackage, "wu:status and wu:claim; wu:done has no native tool")
	assert.Equal(t, "2 goldens, parity script, 60 lines, shares 2/2 calls, 2 native in package", prep.Why())

	repair := got[2]
	assert.Equal(t, status.Points{Goldens: 30, Size: 15, Shared: 10, Package: 10}, repair.Points)
	assert.Equal(t, 65.0, repair.Score)

	assert.Equal(t, status.Points{Size: 30, Shared: 20}, got[3].Points)
	assert.Equal(t, "no goldens, 10 lines, shares 1/1 calls", got[3].Why())

	branch, log := got[4], got[6]
	assert.Equal(t, 37.5, branch.Score, "30 goldens + 7.5 size; delivery.Diff is not shared")
	assert.Equal(t, "1 golden, 480 lines, shares 0/1 calls", branch.Why())
	assert.Equal(t, status.Points{Goldens: 30}, log.Points)
	assert.Equal(t, "1 golden, size unknown", log.Why())

	assert.Equal(t, got, status.Rank(facts, native), "pure")
	assert.Empty(t, status.Rank(nil, nil))
	assert.NotNil(t, status.Rank(nil, nil), "an empty ranking is [] in JSON")
}

// TestBuildRanksFromSources: Build reads each command's Source (relative, absolute or
// module-qualified) and the native tool packages under the repository.
func TestBuildRanksFromSources(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) string {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	write("go.mod", "module example.com/corpus\n\ngo 1.22\n")
	write("commands/wu/wu_prep.go", `package wu

import (
	"fmt"

	"example.com/corpus/commands/convention"
	"example.com/corpus/delivery"
)

func prep() error {
	convention.App()
	w, err := delivery.ReadWU("x")
	fmt.Println(w)
	return delivery.Errorf("%v", err)
}
`)
	abs := write("commands/wu/wu_big.go", "package wu\n\nimport \"example.com/corpus/delivery\"\n\nfunc big() { delivery.Rewrite() }\n"+
		strings.Repeat("// filler\n", 300))
	write("commands/wu/wu_status.go", "package wu\n")
	write("nativetools/wu/wu_status.go", `package wu

import (
	"example.com/corpus/delivery"
	"example.com/corpus/tool/native"
)

var _ = native.New(nil, nil)

func run() { delivery.ReadWU("x") }
`)
	write("nativetools/wu/helpers.go", "package wu\n\nimport \"example.com/corpus/delivery\"\n\nfunc h() { delivery.Errorf(\"\") }\n")
	// Not a native tool package: its calls do not count as native.
	write("other/x.go", "package other\n\nimport \"example.com/corpus/delivery\"\n\nfunc r() { delivery.Rewrite() }\n")
	write("testdata/script/wu/prep.txtar", "exec delivery wu:prep\n")

	// A source outside the repository reported on is not read.
	outside := filepath.Join(t.TempDir(), "wu_outside.go")
	require.NoError(t, os.WriteFile(outside, []byte("package wu\n"), 0o644))

	rep, err := status.Build(status.Config{Dir: dir, Program: "delivery", Tools: []status.Tool{
		{Name: "wu:prep", Domain: "wu", Route: "adapter", Command: true, Source: "example.com/corpus/commands/wu/wu_prep.go"},
		{Name: "wu:big", Domain: "wu", Route: "adapter", Command: true, Source: abs},
		{Name: "wu:gone", Domain: "wu", Route: "adapter", Command: true, Source: "commands/wu/wu_gone.go"},
		{Name: "wu:outside", Domain: "wu", Route: "adapter", Command: true, Source: outside},
		{Name: "wu:status", Domain: "wu", Route: "native", Command: true, Native: true, Source: "commands/wu/wu_status.go"},
	}})
	require.NoError(t, err)
	require.Equal(t, []string{"wu:prep", "wu:big", "wu:gone", "wu:outside"}, rankNames(rep.MigrateNext))
	prep, big, gone, out := rep.MigrateNext[0], rep.MigrateNext[1], rep.MigrateNext[2], rep.MigrateNext[3]
	assert.Equal(t, "commands/wu/wu_prep.go", prep.Source)
	assert.Equal(t, 15, prep.Lines)
	assert.Equal(t, 2, prep.Calls, "convention is not called by native tools; fmt is not in the module")
	assert.Equal(t, []string{"delivery.Errorf", "delivery.ReadWU"}, prep.Shared)
	assert.Equal(t, 1, prep.NativeInPackage)
	assert.Equal(t, 1, prep.GoldenScripts)
	assert.Equal(t, 100.0-status.ScoreParity, prep.Score)

	assert.Equal(t, "commands/wu/wu_big.go", big.Source, "an absolute source inside the repository is shown relative")
	assert.Equal(t, 305, big.Lines)
	assert.Equal(t, 1, big.Calls)
	assert.Empty(t, big.Shared, "delivery.Rewrite is only called outside native tool packages")

	assert.Empty(t, gone.Source, "a source that does not exist is unknown")
	assert.Zero(t, gone.Lines)
	assert.Empty(t, out.Source, "a source outside the repository is unknown")
	assert.Zero(t, out.Lines)
}

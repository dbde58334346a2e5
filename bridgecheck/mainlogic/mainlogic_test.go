package mainlogic_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/cmdbridge/cmdbridge/bridgecheck/mainlogic"
)

// a reports main's logic; b sets Config.Prepare, so its main's logic is two notes.
func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), mainlogic.Analyzer, "a", "b")
	for _, r := range results {
		if r.Action.Package.PkgPath != "b" {
			continue
		}
		res := r.Action.Result.(*mainlogic.Result)
		require.True(t, res.Prepare.IsValid())
		var subjects []string
		for _, n := range res.Notes {
			subjects = append(subjects, n.Subject)
		}
		assert.Equal(t, []string{"loadEnv()", "os.Exit(2)"}, subjects)
		assert.Empty(t, res.Findings)
	}
}

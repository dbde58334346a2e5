package exitcall_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/cmdbridge/cmdbridge/bridgecheck/exitcall"
)

func TestAnalyzer(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), exitcall.Analyzer, "a", "b", "c", "example.com/util")
}

package procglobals_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/cmdbridge/cmdbridge/bridgecheck/procglobals"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), procglobals.Analyzer, "a")
}

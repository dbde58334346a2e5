package recovers_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/cmdbridge/cmdbridge/bridgecheck/recovers"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), recovers.Analyzer, "a")
}

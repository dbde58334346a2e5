package goroutines_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/cmdbridge/cmdbridge/bridgecheck/goroutines"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), goroutines.Analyzer, "a", "helper")
}

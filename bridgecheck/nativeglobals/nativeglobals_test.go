package nativeglobals_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/cmdbridge/cmdbridge/bridgecheck/nativeglobals"
)

func TestAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), nativeglobals.Analyzer,
		"nativetools/tool", "a", "example.com/helper", "example.com/outer", "example.com/clean")
}

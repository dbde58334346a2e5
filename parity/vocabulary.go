package parity

import (
	"github.com/cmdbridge/cmdbridge/parity/compare"
	"github.com/cmdbridge/cmdbridge/tool"
)

// What a run compares, how and what it reports live in parity/compare, which the kernel's
// shadow route and the status report use without linking this package's script runner
// (testscript, and with it the testing package). The names below keep parity's own API
// whole: a caller of Run or RunSuite needs one import.

// Kinds of Diff.
const (
	KindOutput = compare.KindOutput
	KindStream = compare.KindStream
	KindTree   = compare.KindTree
)

// States of a tool's parity (compare.StatusPass …) and the results file's version.
const (
	StatusPass           = compare.StatusPass
	StatusFail           = compare.StatusFail
	StatusError          = compare.StatusError
	StatusInProgress     = compare.StatusInProgress
	ResultsSchemaVersion = compare.ResultsSchemaVersion
)

type (
	// Diff is one difference between two lanes (compare.Diff).
	Diff = compare.Diff
	// Streams are a legacy run's raw streams (compare.Streams).
	Streams = compare.Streams
	// Normalizer rewrites what differs between runs by construction (compare.Normalizer).
	Normalizer = compare.Normalizer
	// Rule is one normalisation rule (compare.Rule).
	Rule = compare.Rule
	// Tree is a snapshot of a directory (compare.Tree); Entry one of its files.
	Tree  = compare.Tree
	Entry = compare.Entry
	// Results is the results file (compare.Results); ToolResult one tool's result.
	Results    = compare.Results
	ToolResult = compare.ToolResult
)

// NewNormalizer is compare.NewNormalizer.
func NewNormalizer(work ...string) Normalizer { return compare.NewNormalizer(work...) }

// DefaultRules is compare.DefaultRules.
func DefaultRules() []Rule { return compare.DefaultRules() }

// CompareOutputs is compare.CompareOutputs.
func CompareOutputs(a, b tool.Output, norm Normalizer) []Diff {
	return compare.CompareOutputs(a, b, norm)
}

// CompareStatus is compare.CompareStatus.
func CompareStatus(a, b tool.Output) []Diff { return compare.CompareStatus(a, b) }

// CompareStreams is compare.CompareStreams.
func CompareStreams(a, b Streams, wantLane, gotLane string, norm Normalizer) []Diff {
	return compare.CompareStreams(a, b, wantLane, gotLane, norm)
}

// PlainStreams is compare.PlainStreams.
func PlainStreams(o tool.Output) *Streams { return compare.PlainStreams(o) }

// CompareTrees is compare.CompareTrees.
func CompareTrees(a, b Tree) []Diff { return compare.CompareTrees(a, b) }

// Snapshot is compare.Snapshot.
func Snapshot(dir string) (Tree, error) { return compare.Snapshot(dir) }

// Changes is compare.Changes.
func Changes(before, after Tree) []string { return compare.Changes(before, after) }

// CopyTree is compare.CopyTree.
func CopyTree(src, dst string, skip func(rel string) bool) error {
	return compare.CopyTree(src, dst, skip)
}

// Unfinished is compare.Unfinished: the Diff of a script that started and has not finished.
const Unfinished = compare.Unfinished

// DiedInLane is compare.DiedInLane.
func DiedInLane(tool string, input []byte, lane string) string {
	return compare.DiedInLane(tool, input, lane)
}

// ReadResults is compare.ReadResults.
func ReadResults(path string) (Results, error) { return compare.ReadResults(path) }

// Merge is compare.Merge.
func Merge(prev, run Results, replace bool) Results { return compare.Merge(prev, run, replace) }

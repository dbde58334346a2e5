package compare

import (
	"fmt"
	"strings"

	godiff "github.com/rogpeppe/go-internal/diff"
)

// Kinds of Diff.
const (
	KindOutput = "output" // a field of tool.Output: Path is a JSON pointer (/data/status)
	KindStream = "stream" // raw stdout, stderr or exit_code (legacy lanes; every lane of a plain command)
	KindTree   = "tree"   // a file of the resulting tree, or a .git fact (Path ".git:log")
)

// Diff is one difference between two lanes.
type Diff struct {
	// Lanes names the pair, reference lane first: "subprocess/adapter".
	Lanes string `json:"lanes"`
	// Kind is KindOutput, KindStream or KindTree.
	Kind string `json:"kind"`
	// Path is a JSON pointer for outputs, "stdout"/"stderr"/"exit_code" for
	// streams, a slash-separated file path (or ".git:<fact>") for trees.
	Path string `json:"path"`
	// Want is the reference lane's value, Got the other lane's (rendered as
	// JSON for output fields, "(absent)" when missing).
	Want string `json:"want,omitempty"`
	Got  string `json:"got,omitempty"`
	// Unified is a unified diff when both sides are multi-line text.
	Unified string `json:"unified,omitempty"`
}

// String renders d readably: a one-line header and either want/got lines or
// the unified diff.
func (d Diff) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s", d.Lanes, d.Kind, d.Path)
	if d.Unified != "" {
		b.WriteString(":\n")
		b.WriteString(indent(strings.TrimRight(d.Unified, "\n")))
		return b.String()
	}
	fmt.Fprintf(&b, "\n    want: %s\n    got:  %s", d.Want, d.Got)
	return b.String()
}

// Unified returns a unified diff of two texts labelled with lane names, or
// "" when they are equal.
func Unified(wantName string, want []byte, gotName string, got []byte) string {
	return string(godiff.Diff(wantName, want, gotName, got))
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// textDiff fills Want/Got for short single-line texts and Unified otherwise.
func textDiff(d Diff, wantName string, want []byte, gotName string, got []byte) Diff {
	oneLine := func(b []byte) bool { return !strings.Contains(strings.TrimSuffix(string(b), "\n"), "\n") }
	if oneLine(want) && oneLine(got) && len(want)+len(got) < 200 {
		d.Want, d.Got = fmt.Sprintf("%q", want), fmt.Sprintf("%q", got)
		return d
	}
	d.Unified = Unified(wantName, want, gotName, got)
	return d
}

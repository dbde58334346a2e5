package status

import (
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/cmdbridge/cmdbridge/kernel/evidence"
)

// Promotion is the maintainer's rule for moving a shadow-routed tool to native: at least
// Matches matching shadow runs and at most MaxMismatches disagreeing ones, in a log that
// verifies.
type Promotion struct {
	Matches       int `json:"matches" yaml:"matches"`
	MaxMismatches int `json:"max_mismatches" yaml:"max_mismatches"`
}

// DefaultPromotion is the rule when the workspace sets none.
var DefaultPromotion = Promotion{Matches: 200, MaxMismatches: 0}

// Shadows is what a served workspace's evidence log says of the shadow runs (Config).
type Shadows struct {
	// Workspace is the workspace whose log was read (for the report's text).
	Workspace string
	// Tallies are evidence.ShadowSummary's, per tool.
	Tallies map[string]*evidence.ShadowTally
	// Verified says the log passed evidence.Verify; nothing is recommended otherwise.
	Verified bool
	// Rule decides the recommendation (zero: DefaultPromotion).
	Rule Promotion
}

// ShadowStatus is one tool's shadow record and what the rule says of it.
type ShadowStatus struct {
	evidence.ShadowTally
	// Verdict is promote, keep-shadowing or mismatch; Reason says why in words.
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
}

// The verdicts.
const (
	VerdictPromote  = "promote"
	VerdictKeep     = "keep-shadowing"
	VerdictMismatch = "mismatch"
)

// ShadowReport is the shadow section of a Report.
type ShadowReport struct {
	Workspace string    `json:"workspace"`
	Verified  bool      `json:"verified"`
	Rule      Promotion `json:"rule"`
	// Promote are the tools the rule says to route native, sorted.
	Promote []string `json:"promote"`
}

// shadowStatus is t's shadow status, nil when the log has no shadow run of it.
func shadowStatus(name, route string, s *Shadows) *ShadowStatus {
	if s == nil || s.Tallies[name] == nil {
		return nil
	}
	rule := s.Rule
	if rule == (Promotion{}) {
		rule = DefaultPromotion
	}
	st := &ShadowStatus{ShadowTally: *s.Tallies[name]}
	switch {
	case !s.Verified:
		st.Verdict, st.Reason = VerdictKeep, "the evidence log does not verify (cmdbridge evidence verify): nothing is decided on it"
	case st.Mismatches > rule.MaxMismatches:
		st.Verdict, st.Reason = VerdictMismatch, fmt.Sprintf("%d mismatching runs (the rule allows %d): read the last diff, fix the native tool, clear the evidence or wait for the rule", st.Mismatches, rule.MaxMismatches)
	case st.Matches >= rule.Matches && route == "shadow":
		st.Verdict, st.Reason = VerdictPromote, fmt.Sprintf("%d matching runs ≥ %d, %d mismatches ≤ %d: set routes: {%s: native}", st.Matches, rule.Matches, st.Mismatches, rule.MaxMismatches, name)
	case st.Matches >= rule.Matches:
		st.Verdict, st.Reason = VerdictKeep, fmt.Sprintf("%d matching runs ≥ %d, but the tool is routed %s now", st.Matches, rule.Matches, route)
	default:
		st.Verdict, st.Reason = VerdictKeep, fmt.Sprintf("%d of %d matching runs", st.Matches, rule.Matches)
	}
	return st
}

func shadowReport(s *Shadows, tools []ToolStatus) *ShadowReport {
	if s == nil {
		return nil
	}
	rule := s.Rule
	if rule == (Promotion{}) {
		rule = DefaultPromotion
	}
	r := &ShadowReport{Workspace: s.Workspace, Verified: s.Verified, Rule: rule, Promote: []string{}}
	for _, t := range tools {
		if t.Shadow != nil && t.Shadow.Verdict == VerdictPromote {
			r.Promote = append(r.Promote, t.Name)
		}
	}
	sort.Strings(r.Promote)
	return r
}

// writeShadows is the text report's shadow section.
func writeShadows(b *strings.Builder, r Report) {
	if r.Shadow == nil {
		return
	}
	verified := "verified"
	if !r.Shadow.Verified {
		verified = "DOES NOT VERIFY"
	}
	fmt.Fprintf(b, "shadow runs (evidence of %s, %s; rule: promote after %d matching runs with at most %d mismatches):\n",
		r.Shadow.Workspace, verified, r.Shadow.Rule.Matches, r.Shadow.Rule.MaxMismatches)
	tw := tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
	n := 0
	for _, t := range r.Tools {
		s := t.Shadow
		if s == nil {
			continue
		}
		n++
		fmt.Fprintf(tw, "  %s\t%s\t%d runs, %d match, %d mismatch, %d errors\t%s: %s\n", t.Name, t.Route, s.Runs, s.Matches, s.Mismatches, s.Errors, s.Verdict, s.Reason)
		if m := s.LastMismatch; m != nil {
			fmt.Fprintf(tw, "  \t\tlast mismatch %s (receipt %s):\t\n", m.Time, m.Receipt)
			for _, d := range m.Diffs {
				fmt.Fprintf(tw, "  \t\t  %s\t\n", d)
			}
		}
	}
	_ = tw.Flush()
	if n == 0 {
		b.WriteString("  none recorded (route a tool `shadow` in the workspace's config.yaml and serve it)\n")
	}
	if len(r.Shadow.Promote) > 0 {
		fmt.Fprintf(b, "promote to native: %s\n", strings.Join(r.Shadow.Promote, ", "))
	}
}

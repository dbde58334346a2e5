package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/cmdbridge/cmdbridge/tool"
)

// Decision is a policy outcome.
type Decision string

// Decisions a rule may make.
const (
	Allow Decision = "allow"
	Deny  Decision = "deny"
	Ask   Decision = "ask"
)

// Rule is one policy rule. Empty or nil fields match anything. Rules are tried by
// descending Priority, then in the order given; the first match wins. When none
// matches, the decision is ask for an interactive call and deny otherwise.
type Rule struct {
	Name string `json:"name" yaml:"name"`
	// Tool is a path.Match pattern over canonical names (wu:*); a pattern without
	// wildcards may be any spelling of a name.
	Tool string `json:"tool,omitempty" yaml:"tool,omitempty"`
	// Args is a regular expression matched against the canonical JSON input (sorted keys,
	// compact).
	Args        string   `json:"args,omitempty" yaml:"args,omitempty"`
	ReadOnly    *bool    `json:"read_only,omitempty" yaml:"read_only,omitempty"`
	Destructive *bool    `json:"destructive,omitempty" yaml:"destructive,omitempty"`
	Interactive *bool    `json:"interactive,omitempty" yaml:"interactive,omitempty"`
	Priority    int      `json:"priority,omitempty" yaml:"priority,omitempty"`
	Decision    Decision `json:"decision" yaml:"decision"`
}

// DefaultPolicy is used when Config.Policy is nil: destructive tools ask, everything
// else is allowed. Non-interactive destructive calls therefore need an explicit rule.
func DefaultPolicy() []Rule {
	yes := true
	return []Rule{
		{Name: "default-destructive-ask", Destructive: &yes, Priority: -1000, Decision: Ask},
		{Name: "default-allow", Tool: "*", Priority: -1001, Decision: Allow},
	}
}

// ApprovalRequest is what an Approver is asked.
type ApprovalRequest struct {
	CallID    string          `json:"call_id"`
	RunID     string          `json:"run_id"`
	Tool      string          `json:"tool"`
	Subject   string          `json:"subject"`
	Input     json.RawMessage `json:"input"`
	Rule      string          `json:"rule"`
	Approvals []string        `json:"required_approvals,omitempty"`
}

// Approver decides ask outcomes for interactive calls. It must return when ctx ends.
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) (bool, error)
}

// ApproverFunc adapts a function to Approver.
type ApproverFunc func(ctx context.Context, req ApprovalRequest) (bool, error)

// Approve calls f.
func (f ApproverFunc) Approve(ctx context.Context, req ApprovalRequest) (bool, error) {
	return f(ctx, req)
}

type compiledRule struct {
	Rule
	args *regexp.Regexp
}

func compilePolicy(rules []Rule, names *tool.Names) ([]compiledRule, error) {
	out := make([]compiledRule, 0, len(rules))
	for i, r := range rules {
		if r.Name == "" {
			r.Name = fmt.Sprintf("rule-%d", i+1)
		}
		switch r.Decision {
		case Allow, Deny, Ask:
		default:
			return nil, fmt.Errorf("policy rule %s: decision %q is not allow, deny or ask", r.Name, r.Decision)
		}
		if r.Tool != "" {
			if _, err := path.Match(r.Tool, ""); err != nil {
				return nil, fmt.Errorf("policy rule %s: tool pattern %q: %w", r.Name, r.Tool, err)
			}
			if canon, ok := names.Resolve(r.Tool); ok && !hasMeta(r.Tool) {
				r.Tool = canon
			}
		}
		c := compiledRule{Rule: r}
		if r.Args != "" {
			re, err := regexp.Compile(r.Args)
			if err != nil {
				return nil, fmt.Errorf("policy rule %s: args pattern: %w", r.Name, err)
			}
			c.args = re
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Priority > out[j].Priority })
	return out, nil
}

func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }

// decide returns the decision for one call and the name of the rule that made it.
func decide(rules []compiledRule, spec *tool.Spec, canonicalInput []byte, interactive bool) (Decision, string) {
	for _, r := range rules {
		if r.Tool != "" {
			if ok, _ := path.Match(r.Tool, spec.Name); !ok {
				continue
			}
		}
		if r.ReadOnly != nil && *r.ReadOnly != spec.Annotations.ReadOnlyHint {
			continue
		}
		if r.Destructive != nil && *r.Destructive != spec.Annotations.DestructiveHint {
			continue
		}
		if r.Interactive != nil && *r.Interactive != interactive {
			continue
		}
		if r.args != nil && !r.args.Match(canonicalInput) {
			continue
		}
		return r.Decision, r.Name
	}
	if interactive {
		return Ask, "default"
	}
	return Deny, "default"
}

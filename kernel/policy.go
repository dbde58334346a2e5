package kernel

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

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
	Args string `json:"args,omitempty" yaml:"args,omitempty"`
	// ReadOnly, Destructive and RunsCode match the effect of the call (the tool's
	// annotations as narrowed by its effects for this input), not the tool's worst
	// case. RunsCode matches calls that run workspace code (tool.Annotations
	// RunsCodeHint: gates, wu:prep, wu:done without skip_gates, wu:sandbox).
	ReadOnly    *bool    `json:"read_only,omitempty" yaml:"read_only,omitempty"`
	Destructive *bool    `json:"destructive,omitempty" yaml:"destructive,omitempty"`
	RunsCode    *bool    `json:"runs_code,omitempty" yaml:"runs_code,omitempty"`
	Interactive *bool    `json:"interactive,omitempty" yaml:"interactive,omitempty"`
	Priority    int      `json:"priority,omitempty" yaml:"priority,omitempty"`
	Decision    Decision `json:"decision" yaml:"decision"`
}

// DefaultPolicy is used when Config.Policy is nil: calls that run workspace code ask,
// destructive calls ask, everything else is allowed. A call's effect decides
// (tool.Spec.EffectOf), so a destructive tool's harmless modes (a dry run, a --check)
// are allowed, and so is wu:done with skip_gates; the others, made non-interactively,
// need an explicit rule. Workspace code asks because whoever may write the workspace's
// configuration (file:write, config:set) chooses it.
func DefaultPolicy() []Rule {
	yes := true
	return []Rule{
		{Name: "default-runs-code-ask", RunsCode: &yes, Priority: -1000, Decision: Ask},
		{Name: "default-destructive-ask", Destructive: &yes, Priority: -1000, Decision: Ask},
		{Name: "default-allow", Tool: "*", Priority: -1001, Decision: Allow},
	}
}

// ApprovalRequest is what an Approver is asked.
type ApprovalRequest struct {
	CallID  string          `json:"call_id"`
	RunID   string          `json:"run_id"`
	Tool    string          `json:"tool"`
	Subject string          `json:"subject"`
	Input   json.RawMessage `json:"input"`
	Rule    string          `json:"rule"`
	// Effect is the call's effect: read_only, write, destructive or runs_code.
	Effect    string   `json:"effect"`
	Approvals []string `json:"required_approvals,omitempty"`
	// StdinHash is the receipt's stdin hash when the call has stdin: an approval is for
	// this input and this stdin.
	StdinHash string `json:"stdin_hash,omitempty"`
}

// ErrApprovalDeferred is what an Approver returns when it cannot wait but will have
// the question answered out of band (an MCP client asked to elicit the answer, which
// comes back with a retried call): the call ends APPROVAL_REQUIRED, not denied.
var ErrApprovalDeferred = errors.New("approval deferred")

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
// effect is the call's effective annotations (spec.EffectOf of its input).
func decide(rules []compiledRule, spec *tool.Spec, effect tool.Annotations, canonicalInput []byte, interactive bool) (Decision, string) {
	for _, r := range rules {
		if r.Tool != "" {
			if ok, _ := path.Match(r.Tool, spec.Name); !ok {
				continue
			}
		}
		if r.ReadOnly != nil && *r.ReadOnly != effect.ReadOnlyHint {
			continue
		}
		if r.Destructive != nil && *r.Destructive != effect.DestructiveHint {
			continue
		}
		if r.RunsCode != nil && *r.RunsCode != effect.RunsCodeHint {
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

// requiredApprovalsSuffix marks a decision turned from allow into ask by the tool's
// RequiredApprovals: no policy rule can allow such a call without a person.
const requiredApprovalsSuffix = "+required_approvals"

// refusalHint explains a POLICY_DENIED or APPROVAL_REQUIRED refusal: the details name
// the rule that decided and the call's effect, and, unless the tool requires a person's
// approval, carry "config": a ready-to-paste policy for .cmdbridge/config.yaml that
// allows this tool, and "allowed_without": the harmless modes of the tool (its effects)
// the current policy already allows. note is the same in one sentence for the message.
func (k *Kernel) refusalHint(spec *tool.Spec, effect tool.Annotations, canonical []byte, interactive bool, rule string) (details map[string]any, note string) {
	details = map[string]any{"rule": rule, "effect": effect.Kind()}
	if len(spec.RequiredApprovals) > 0 {
		details["required_approvals"] = spec.RequiredApprovals
	}
	if strings.HasSuffix(rule, requiredApprovalsSuffix) {
		return details, fmt.Sprintf("%s requires the approval of a person (%s), which no policy rule replaces",
			spec.Name, strings.Join(spec.RequiredApprovals, ", "))
	}
	snippet, err := k.allowSnippet(spec.Name, rule)
	if err == nil {
		details["config"] = snippet
		note = fmt.Sprintf("to allow %s, add the rule %q of details.config to the policy in %s", spec.Name, allowRuleName(spec.Name), ConfigFile)
	}
	var harmless []string
	for _, e := range spec.Effects {
		a := effect
		a.ReadOnlyHint, a.DestructiveHint, a.RunsCodeHint = e.ReadOnly, e.Destructive, e.RunsCode
		if level(a) >= level(effect) {
			continue // not less than this call's effect
		}
		if d, _ := decide(k.policy, spec, a, canonical, interactive); d == Allow {
			harmless = append(harmless, e.Describe()+" ("+strings.ReplaceAll(a.Kind(), "_", "-")+")")
		}
	}
	if len(harmless) > 0 {
		details["allowed_without"] = harmless
		note += "; the policy already allows it " + strings.Join(harmless, ", or ")
	}
	if slices.Contains(spec.Warnings, tool.UndeclaredWarning) {
		// Nobody said what the command does: it asks as the worst case. The better fix
		// is the program's own declaration, which a workspace cannot make.
		details["undeclared"] = true
		note += fmt.Sprintf("; %s is served as destructive only because its program declares no effects for it: "+
			"if it destroys nothing, declare that in the program (cmdbridge.Config.Effects, or wrap --effects FILE; docs/adopt.md, Effects)", spec.Name)
	}
	return details, note
}

// level orders effects: read-only 0, writing 1, destructive 2, running workspace code 3.
func level(a tool.Annotations) int {
	switch {
	case a.RunsCodeHint:
		return 3
	case a.ReadOnlyHint:
		return 0
	case a.DestructiveHint:
		return 2
	}
	return 1
}

func allowRuleName(tool string) string {
	return "allow-" + strings.NewReplacer(":", "-", "_", "-").Replace(tool)
}

// allowSnippet is a policy for .cmdbridge/config.yaml whose first rule allows the tool
// ahead of the rule that decided. A policy key replaces the default policy, so when the
// kernel runs the default policy the snippet repeats its rules after the new one; with a
// configured policy it is the one rule to add to the list.
func (k *Kernel) allowSnippet(name, decidedBy string) (string, error) {
	priority := 0
	for _, r := range k.policy {
		if r.Name == decidedBy {
			priority = r.Priority + 1
			break
		}
	}
	rules := []Rule{{Name: allowRuleName(name), Tool: name, Decision: Allow, Priority: priority}}
	header := "# add this rule to the policy list of " + ConfigFile + "\n"
	if reflect.DeepEqual(k.cfg.Policy, DefaultPolicy()) {
		rules = append(rules, DefaultPolicy()...)
		header = "# " + ConfigFile + ": a policy key replaces the default policy, whose rules follow the new one\n"
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(struct {
		Policy []Rule `yaml:"policy"`
	}{rules}); err != nil {
		return "", err
	}
	_ = enc.Close()
	return header + b.String(), nil
}

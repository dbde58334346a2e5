package kernel

import (
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cmdbridge/cmdbridge/internal/lazyregexp"
	"github.com/cmdbridge/cmdbridge/tool"
)

var (
	usageFlag     = lazyregexp.New(`(^|[^\w-])--([A-Za-z0-9][A-Za-z0-9-]*)`)
	usageArgument = lazyregexp.New(`\b(argument|for) ([A-Z][A-Z0-9_]*)\b`)
	usageRewrites = []struct {
		re   *lazyregexp.Regexp
		with string
	}{
		{lazyregexp.New(`^missing required (?:flag|argument) (\w+)$`), "$1 is required"},
		{lazyregexp.New(`^flags (\w+) and (\w+) cannot be used together$`), "$1 and $2 cannot be given together"},
		{lazyregexp.New(`^flag (\w+) requires (\w+)$`), "$1 requires $2"},
	}
)

// speakUsage words a lane's USAGE answer in the tool's terms. USAGE is the command's own
// argument check (corpus §2.3, exit 2): it names flags and positionals ("missing required
// argument ID", "invalid value \"x\" for --wu: …"). Every flag or positional that is an
// input property is renamed to the property ("id is required", "invalid value \"x\" for
// wu: …"); the command's words stay in details.cli_message. Other outputs pass unchanged.
func speakUsage(s *jsonschema.Schema, out tool.Output) tool.Output {
	if out.Error == nil || out.Error.Code != tool.CodeUsage || s == nil {
		return out
	}
	prop := func(name string) (string, bool) {
		p := tool.PropertyName(strings.ToLower(name))
		_, ok := s.Properties[p]
		return p, ok
	}
	msg := usageFlag.ReplaceAllStringFunc(out.Error.Message, func(m string) string {
		sub := usageFlag.FindStringSubmatch(m)
		if p, ok := prop(sub[2]); ok {
			return sub[1] + p
		}
		return m
	})
	msg = usageArgument.ReplaceAllStringFunc(msg, func(m string) string {
		sub := usageArgument.FindStringSubmatch(m)
		if p, ok := prop(sub[2]); ok {
			return sub[1] + " " + p
		}
		return m
	})
	for _, r := range usageRewrites {
		if sub := r.re.FindStringSubmatch(msg); sub != nil {
			all := true
			for _, name := range sub[1:] {
				_, ok := s.Properties[name]
				all = all && ok
			}
			if all {
				msg = r.re.ReplaceAllString(msg, r.with)
			}
		}
	}
	if msg == out.Error.Message {
		return out
	}
	details := map[string]any{}
	switch d := out.Error.Details.(type) {
	case nil:
	case map[string]any:
		for k, v := range d {
			details[k] = v
		}
	default:
		return out // details the kernel cannot extend: keep the command's words
	}
	details["cli_message"] = out.Error.Message
	e := *out.Error
	e.Message, e.Details = msg, details
	out.Error = &e
	return out
}

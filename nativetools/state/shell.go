package state

import (
	"regexp"
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// durationForm is spec §2.1's DURATION form, which the argv phase requires of a duration
// flag.
var durationForm = regexp.MustCompile(`^\d+[smhdw]$`)

// duration checks a present DURATION property as the command's flag does (USAGE, ""
// included) and returns its value; nil when absent.
func duration(prop string, v *string) (*time.Duration, error) {
	if v == nil {
		return nil, nil
	}
	if !durationForm.MatchString(*v) {
		return nil, delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: expected duration like 30m, 24h or 7d", *v, tool.FlagName(prop))
	}
	d, err := delivery.ParseDuration(*v)
	if err != nil {
		return nil, delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: %v", *v, tool.FlagName(prop), err)
	}
	return &d, nil
}

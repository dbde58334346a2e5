package state

import (
	"time"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// duration is a DURATION property's length, nil when it is absent (""). The schema
// guarantees the form (<int><unit>); what a pattern cannot state is a number too large
// for an int64, which stays USAGE here.
func duration(prop, v string) (*time.Duration, error) {
	if v == "" {
		return nil, nil
	}
	d, err := delivery.ParseDuration(v)
	if err != nil {
		return nil, delivery.Errorf(tool.CodeUsage, "invalid value %q for --%s: %v", v, tool.FlagName(prop), err)
	}
	return &d, nil
}

package initiative

import (
	"github.com/cmdbridge/cmdbridge/commands/convention"
)

// flagPtr is a string flag's value when it was given, nil otherwise (the operations tell
// an absent flag from an empty one).
func flagPtr(c *convention.Call, flag string) *string {
	if !c.IsSet(flag) {
		return nil
	}
	v := c.String(flag)
	return &v
}

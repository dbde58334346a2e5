// Package outer reaches a process global two calls deep, through another package.
package outer

import "example.com/helper"

// Where reads os.Getenv through helper.Dir and helper.Home.
func Where() string { // want Where:"reads os.Getenv"
	return helper.Dir()
}

// Generic is a generic function that reaches a global.
func Generic[T any](v T) T { // want Generic:"reads os.Getenv"
	_ = helper.Home()
	return v
}

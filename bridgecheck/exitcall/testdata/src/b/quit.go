package b

import "os"

// quit's file does not import urfave/cli: no fix is offered here.
func quit(code int) {
	os.Exit(code) // want `\[os-exit\] os\.Exit`
}

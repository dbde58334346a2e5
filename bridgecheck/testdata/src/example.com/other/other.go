// Package other is neither a legacy command package nor a native tool: nothing here is
// reported.
package other

import (
	"log"
	"os"
)

func Main() {
	if len(os.Args) < 2 {
		log.Fatal("usage")
	}
	os.Exit(0)
}

package cli

import (
	"io"
	"os"
)

// readAll reads r, or the process stdin when the app has no reader.
func readAll(r io.Reader) ([]byte, error) {
	if r == nil {
		r = os.Stdin
	}
	return io.ReadAll(r)
}

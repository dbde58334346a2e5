package broker_test

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	// The killed-sidecar test re-executes this binary as the sidecar it kills.
	if spec := os.Getenv(childEnv); spec != "" {
		os.Exit(runChild(spec))
	}
	os.Exit(m.Run())
}

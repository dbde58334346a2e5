package cli

import (
	"path/filepath"

	"github.com/cmdbridge/cmdbridge/kernel"
	"github.com/cmdbridge/cmdbridge/parity/status"
)

// workspaceConfig is a workspace's .cmdbridge/config.yaml (kernel.ConfigFile) as this
// package's commands read it: the kernel's settings, and the keys only these commands
// read, which the kernel does not know.
//
//	nats:                            # cmdbridge serve also joins this broker (docs/scale.md)
//	  url: nats://127.0.0.1:4222
//	  creds: /etc/cmdbridge/ws-1.creds
//	shadow_promotion:                # cmdbridge status --workspace: when shadow may go native
//	  matches: 200
//	  max_mismatches: 0
type workspaceConfig struct {
	kernel.FileConfig
	// NATS is the broker serve joins (nil: the key is absent).
	NATS *FileNATS
	// ShadowPromotion is the rule `cmdbridge status --workspace` applies to the shadow
	// runs of the log (nil: the key is absent).
	ShadowPromotion *status.Promotion
}

// FileNATS is the broker a sidecar joins besides serving HTTP: the server URLs
// (comma-separated) and an optional NATS credentials file.
type FileNATS struct {
	URL   string `yaml:"url"`
	Creds string `yaml:"creds"`
}

// loadWorkspaceConfig reads the config file of the workspace ws; every command that
// reads it reads it whole, so a key one of them does not use is never an unknown key.
func loadWorkspaceConfig(ws string) (workspaceConfig, error) {
	var wc workspaceConfig
	var err error
	wc.FileConfig, err = kernel.LoadFileConfig(filepath.Join(ws, kernel.ConfigFile),
		kernel.FileSection{Key: "nats", Into: &wc.NATS},
		kernel.FileSection{Key: "shadow_promotion", Into: &wc.ShadowPromotion})
	return wc, err
}

package memory

import (
	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "mem:init", Domain: "memory",
		New: newMemInitApp, Main: convention.Main(newMemInitApp)})
}

func newMemInitApp() *cli.App {
	return convention.App(convention.Spec{
		Name:       "mem:init",
		Usage:      "Create the memory store (.lumenflow/memory) when it is missing",
		Idempotent: true,
		Action:     memInit,
	})
}

func memInit(c *convention.Call) error {
	ws, err := c.Workspace()
	if err != nil {
		return err
	}
	jsonl, cfg, err := delivery.InitMemory(ws.Root)
	if err != nil {
		return err
	}
	return c.Result("Memory initialised at "+delivery.MemoryDir,
		memInitData{MemoryDir: delivery.MemoryDir, CreatedMemoryJSONL: jsonl, CreatedConfigYAML: cfg})
}

// memInitData is mem:init's JSON data.
type memInitData struct {
	MemoryDir          string `json:"memory_dir"`
	CreatedMemoryJSONL bool   `json:"created_memory_jsonl"`
	CreatedConfigYAML  bool   `json:"created_config_yaml"`
}

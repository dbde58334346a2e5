package ops

import (
	"context"

	"github.com/cmdbridge/cmdbridge/delivery"
)

// MemInitInput is mem:init's input: the command takes no flags.
type MemInitInput struct{}

// MemInitData is mem:init's JSON data.
type MemInitData struct {
	MemoryDir          string `json:"memory_dir"`
	CreatedMemoryJSONL bool   `json:"created_memory_jsonl"`
	CreatedConfigYAML  bool   `json:"created_config_yaml"`
}

// MemInit is corpus §3.4 mem:init: .lumenflow/memory, an empty memory.jsonl and config.yaml
// (§1.8) created when they are missing; existing files are never touched. The data says
// which files it created. Notes.Headline is "Memory initialised at .lumenflow/memory".
func MemInit(_ context.Context, ws *delivery.Workspace, _ *delivery.Runtime, _ MemInitInput) (MemInitData, Notes, error) {
	var notes Notes
	jsonl, cfg, err := delivery.InitMemory(ws.Root)
	if err != nil {
		return MemInitData{}, notes, err
	}
	notes.Headline = "Memory initialised at " + delivery.MemoryDir
	return MemInitData{MemoryDir: delivery.MemoryDir, CreatedMemoryJSONL: jsonl, CreatedConfigYAML: cfg}, notes, nil
}

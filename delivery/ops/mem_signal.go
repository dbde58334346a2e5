package ops

import (
	"context"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// MemSignalInput is mem:signal's input. WU defaults to the current session's when "";
// an empty Type or Sender takes delivery.DefaultSignalType / DefaultSignalSender (the
// command's flag defaults).
type MemSignalInput struct {
	Message, WU, Lane, Type, Sender, TargetAgent string
}

// Check rejects a message that is blank once trimmed (VALIDATION), before the workspace
// is opened.
func (in MemSignalInput) Check() error {
	if strings.TrimSpace(in.Message) == "" {
		return delivery.Errorf(tool.CodeValidation, "--message must not be empty")
	}
	return nil
}

// MemSignalData is mem:signal's JSON data.
type MemSignalData struct {
	Signal delivery.Signal `json:"signal"`
}

// MemSignal is spec §3.4 mem:signal: one signal appended to the store, its message
// trimmed. Notes.Headline is "Signal <id> sent".
func MemSignal(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in MemSignalInput) (MemSignalData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return MemSignalData{}, notes, err
	}
	wu, _ := SessionDefaults(ws, &notes, in.WU, "")
	sig, err := delivery.SendSignal(ws.Root, rt, delivery.SignalInput{Message: strings.TrimSpace(in.Message),
		Type: in.Type, Sender: in.Sender, WUID: wu, Lane: in.Lane, TargetAgent: in.TargetAgent})
	if err != nil {
		return MemSignalData{}, notes, err
	}
	notes.Headline = "Signal " + sig.ID + " sent"
	return MemSignalData{Signal: sig}, notes, nil
}

package ops

import (
	"context"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// MemSignalInput is mem:signal's input. WU defaults to the current session's when "";
// an empty Type or Sender takes delivery.DefaultSignalType / DefaultSignalSender (the
// command's flag defaults). Caller is the call's authenticated subject (tool.Env.Caller;
// CMDBRIDGE_CALLER for the legacy command), "" when the command runs by hand.
type MemSignalInput struct {
	Message, WU, Lane, Type, Sender, TargetAgent string
	Caller                                       string
}

// Check rejects a message that is blank once trimmed (VALIDATION), and a sender that
// claims to be someone other than the authenticated caller (VALIDATION), before the
// workspace is opened.
func (in MemSignalInput) Check() error {
	if strings.TrimSpace(in.Message) == "" {
		return delivery.Errorf(tool.CodeValidation, "--message must not be empty")
	}
	if in.Caller != "" && in.Sender != "" && in.Sender != delivery.DefaultSignalSender && in.Sender != in.Caller {
		return delivery.Errorf(tool.CodeValidation, "--sender %q is not the authenticated caller %q: a signal's sender is who sent it", in.Sender, in.Caller)
	}
	return nil
}

// sender is who the signal is recorded as from: the authenticated caller when there is
// one (a body cannot claim another name), else the given sender or the default.
func (in MemSignalInput) sender() string {
	if in.Caller != "" {
		return in.Caller
	}
	return in.Sender
}

// MemSignalData is mem:signal's JSON data.
type MemSignalData struct {
	Signal delivery.Signal `json:"signal"`
}

// MemSignal is corpus §3.4 mem:signal: one signal appended to the store, its message
// trimmed. Notes.Headline is "Signal <id> sent".
func MemSignal(ctx context.Context, ws *delivery.Workspace, rt *delivery.Runtime, in MemSignalInput) (MemSignalData, Notes, error) {
	var notes Notes
	if err := in.Check(); err != nil {
		return MemSignalData{}, notes, err
	}
	wu, _ := SessionDefaults(ws, &notes, in.WU, "")
	sig, err := delivery.SendSignal(ws.Root, rt, delivery.SignalInput{Message: strings.TrimSpace(in.Message),
		Type: in.Type, Sender: in.sender(), WUID: wu, Lane: in.Lane, TargetAgent: in.TargetAgent})
	if err != nil {
		return MemSignalData{}, notes, err
	}
	notes.Headline = "Signal " + sig.ID + " sent"
	return MemSignalData{Signal: sig}, notes, nil
}

package provider

import (
	"sync"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// boxStates holds, for one configured provider, the state (`state`) each
// sbx_sandbox last recorded for its box, by box id: what a snapshot of the
// box hands its platform (platform.SnapshotSpec.SandboxState), since a
// platform may not report whether a paused box kept its memory. A nil
// registry records and knows nothing.
type boxStates struct {
	mu    sync.Mutex
	state map[string]platform.SandboxState
}

func newBoxStates() *boxStates { return &boxStates{state: map[string]platform.SandboxState{}} }

// record notes the state recorded for box id.
func (b *boxStates) record(id, state string) {
	if b == nil || id == "" || state == "" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.state[id] = platform.SandboxState(state)
}

// get is the state recorded for box id, "" when none was.
func (b *boxStates) get(id string) platform.SandboxState {
	if b == nil {
		return ""
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state[id]
}

// recorded reports whether box id was recorded in this run: read from the
// state (a refresh reads every box a state holds before planning it) or
// made.
func (b *boxStates) recorded(id string) bool { return b.get(id) != "" }

// boxStatesFrom extracts the provider's registry (nil when unconfigured).
func boxStatesFrom(providerDataValue any) *boxStates {
	if data, ok := providerDataValue.(*providerData); ok {
		return data.boxes
	}
	return nil
}

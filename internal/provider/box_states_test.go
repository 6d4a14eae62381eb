package provider

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestBoxStates: the state each sandbox resource recorded is what a
// snapshot of its box hands the platform; nothing recorded (or no
// registry) is "".
func TestBoxStates(t *testing.T) {
	var none *boxStates
	none.record("box", "stopped")
	if got := none.get("box"); got != "" {
		t.Errorf("nil registry: %q", got)
	}
	b := newBoxStates()
	b.record("box", "paused")
	b.record("box", "stopped")
	b.record("", "paused")
	b.record("other", "")
	if got := b.get("box"); got != platform.StateStopped {
		t.Errorf("box: %q, want stopped", got)
	}
	if got := b.get("other"); got != "" {
		t.Errorf("other: %q, want nothing", got)
	}
}

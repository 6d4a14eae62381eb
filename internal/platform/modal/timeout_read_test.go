package modal

import (
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A read gives the timeout the box's record holds, so an import reads the
// configured one back: none when the box has Modal's default (which a
// configuration without a timeout asks for), and always the deadline
// Modal ends the box at.
func TestSandboxTimeoutRead(t *testing.T) {
	for _, tc := range []struct {
		name        string
		timeout     time.Duration // configured
		wantTimeout time.Duration // read back
		wantLife    time.Duration // expires_at - created
	}{
		{name: "an hour", timeout: time.Hour, wantTimeout: time.Hour, wantLife: time.Hour},
		{name: "none", wantLife: defaultSandboxTimeout},
		{name: "the default written out", timeout: defaultSandboxTimeout, wantLife: defaultSandboxTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, false)
			made := f.box(t, platform.SandboxSpec{Lifecycle: platform.Lifecycle{Timeout: tc.timeout}})
			sb, err := f.p.Sandboxes().Get(f.ctx, made.ID)
			if err != nil {
				t.Fatal(err)
			}
			if sb.Lifecycle.Timeout != tc.wantTimeout || sb.ExpiresAt.Sub(sb.CreatedAt) != tc.wantLife {
				t.Fatalf("read timeout %s, expires %s after creation; want %s, %s", sb.Lifecycle.Timeout, sb.ExpiresAt.Sub(sb.CreatedAt), tc.wantTimeout, tc.wantLife)
			}
		})
	}
}

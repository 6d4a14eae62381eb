package modal

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
)

// srv is the one fake of this test binary: the SDK reads MODAL_SERVER_URL
// from the process environment, so every test shares it and keeps to a
// workspace of its own.
var srv *modalfake.Server

func TestMain(m *testing.M) {
	os.Exit(modalfake.RunTests(m, func(s *modalfake.Server) { srv = s }))
}

// envMu serialises platforms made with MODAL_SANDBOX_V2 switched: the SDK
// reads it from the process environment when its client is made.
var envMu sync.Mutex

// fixture is a workspace of the fake and a platform on it.
type fixture struct {
	w   *modalfake.Workspace
	p   *Platform
	ctx context.Context
}

// newFixture makes a workspace and a platform of it; v1 makes the SDK use
// Modal's V1 sandbox calls (MODAL_SANDBOX_V2=false).
func newFixture(t *testing.T, v1 bool) *fixture {
	t.Helper()
	w := srv.NewWorkspace(t)
	envMu.Lock()
	if v1 {
		t.Setenv("MODAL_SANDBOX_V2", "false")
	}
	p, err := New(Config{TokenID: w.TokenID(), TokenSecret: w.TokenSecret(), App: "sbx-test"})
	envMu.Unlock()
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	p.lookupSleep = func(context.Context, time.Duration) error { return nil }
	p.now = w.Now
	t.Cleanup(func() { _ = p.Close() })
	// The fake answers within milliseconds: Patience ends only a test
	// whose calls hang, however loaded the machine.
	ctx, cancel := context.WithTimeout(context.Background(), clock.Patience)
	t.Cleanup(cancel)
	return &fixture{w: w, p: p, ctx: ctx}
}

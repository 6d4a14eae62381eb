package modalfake

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"

	modal "github.com/modal-labs/modal-client/go"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

// envMu serialises clients made with MODAL_SANDBOX_V2 switched: the SDK
// reads it from the process environment when a client is made.
var envMu sync.Mutex

// newClient is an SDK client of w; v1 makes it use the V1 sandbox RPCs.
func newClient(t *testing.T, w *Workspace, v1 bool) *modal.Client {
	t.Helper()
	envMu.Lock()
	defer envMu.Unlock()
	if v1 {
		t.Setenv("MODAL_SANDBOX_V2", "false")
	} else {
		t.Setenv("MODAL_SANDBOX_V2", "true")
	}
	c, err := modal.NewClientWithOptions(&modal.ClientParams{
		TokenID:     w.TokenID(),
		TokenSecret: w.TokenSecret(),
		Logger:      slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatalf("NewClientWithOptions: %v", err)
	}
	t.Cleanup(c.Close)
	return c
}

// ctxOf bounds a test's calls to the fake: they answer within
// milliseconds, so the bound is clock.Patience, which ends only a call that
// hangs, however loaded the machine.
func ctxOf(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), clock.Patience)
	t.Cleanup(cancel)
	return ctx
}

// fixture is a workspace with a client, an app and a built image.
type fixture struct {
	w     *Workspace
	c     *modal.Client
	ctx   context.Context
	app   *modal.App
	image *modal.Image
}

func newFixture(t *testing.T, v1 bool) *fixture {
	t.Helper()
	f := &fixture{w: srv.NewWorkspace(t), ctx: ctxOf(t)}
	f.c = newClient(t, f.w, v1)
	app, err := f.c.Apps.FromName(f.ctx, "agents", &modal.AppFromNameParams{CreateIfMissing: true})
	if err != nil {
		t.Fatalf("Apps.FromName: %v", err)
	}
	f.app = app
	img, err := f.c.Images.FromRegistry("alpine:3.21", nil).DockerfileCommands([]string{"RUN apk add git"}, nil).Build(f.ctx, app, nil)
	if err != nil {
		t.Fatalf("Image.Build: %v", err)
	}
	f.image = img
	return f
}

func (f *fixture) create(t *testing.T, p *modal.SandboxCreateParams) *modal.Sandbox {
	t.Helper()
	sb, err := f.c.Sandboxes.Create(f.ctx, f.app, f.image, p)
	if err != nil {
		t.Fatalf("Sandboxes.Create: %v", err)
	}
	return sb
}

func (f *fixture) view(t *testing.T, id string) SandboxView {
	t.Helper()
	v, ok := f.w.Sandbox(id)
	if !ok {
		t.Fatalf("no sandbox %s in the fake", id)
	}
	return v
}

// modalSnapshotParams makes a sandbox that can take memory snapshots.
var modalSnapshotParams = modal.SandboxCreateParams{ExperimentalEnableSnapshot: true}

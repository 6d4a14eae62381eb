package fly

import (
	"context"
	"net/http"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// TestSandboxListAnyMaker: a machine made with flyctl (no managed
// metadata) is listed only when the list asks for every maker.
func TestSandboxListAnyMaker(t *testing.T) {
	f := newFixture(t, flyfake.Options{}, Config{})
	own := f.box(t, platform.SandboxSpec{Labels: map[string]string{"team": "a"}})
	var foreign struct {
		ID string `json:"id"`
	}
	platformtest.PostJSON(t, f.srv.URL()+"/v1/apps/"+testApp+"/machines", http.Header{"Authorization": {"Bearer " + testToken}},
		map[string]any{"name": "by-hand", "config": map[string]any{"image": "alpine:3.20", "metadata": map[string]string{"team": "a"}}}, &foreign)
	// Fly's list may lag a create (the fake models it for one list).
	if _, err := f.p.Sandboxes().List(context.Background(), platform.SandboxFilter{AnyMaker: true}); err != nil {
		t.Fatal(err)
	}
	platformtest.CheckAnyMaker(t, f.p.Sandboxes(), platform.SandboxFilter{Labels: map[string]string{"team": "a"}}, own.MadeWith, own.ID, foreign.ID)
}

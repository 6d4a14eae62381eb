package e2b

import (
	"context"
	"net/http"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// TestSandboxListAnyMaker: a box made with the SDK (no managed metadata)
// is listed only when the list asks for every maker.
func TestSandboxListAnyMaker(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	tpl := e2bTestTemplate(t, p)
	marks := platform.NewMarks("team")
	own, err := p.Sandboxes().Create(context.Background(), platform.SandboxSpec{TemplateID: tpl, Marks: marks,
		State: platform.StateRunning, Labels: map[string]string{"team": "a"}})
	if err != nil {
		t.Fatal(err)
	}
	var foreign struct {
		SandboxID string `json:"sandboxID"`
	}
	platformtest.PostJSON(t, fake.URL()+"/sandboxes", http.Header{"X-Api-Key": {e2bTestKey}},
		map[string]any{"templateID": tpl, "metadata": map[string]string{"team": "a"}}, &foreign)
	platformtest.CheckAnyMaker(t, p.Sandboxes(), platform.SandboxFilter{Labels: map[string]string{"team": "a"}}, marks, own.ID, foreign.SandboxID)
}

package daytona

import (
	"context"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// TestSandboxListAnyMaker: a box made with the SDK (no managed label) is
// listed only when the list asks for every maker.
func TestSandboxListAnyMaker(t *testing.T) {
	f := newFixture(t, daytonafake.Options{ListLagLists: -1})
	marks := platform.NewMarks("team")
	own := f.box(t, "", platform.SandboxSpec{Marks: marks, Labels: map[string]string{"team": "a"}})
	f.post(t, "/sandbox", map[string]any{"name": "by-hand", "labels": map[string]string{"team": "a"}})
	var foreign string
	all, err := f.p.Sandboxes().List(context.Background(), platform.SandboxFilter{AnyMaker: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, sb := range all {
		if sb.Name == "by-hand" {
			foreign = sb.ID
		}
	}
	platformtest.CheckAnyMaker(t, f.p.Sandboxes(), platform.SandboxFilter{Labels: map[string]string{"team": "a"}}, marks, own.ID, foreign)
}

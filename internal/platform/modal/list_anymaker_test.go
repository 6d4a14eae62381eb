package modal

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// TestSandboxListAnyMaker: a box whose tags another client set (none of
// the provider's) is listed only when the list asks for every maker.
func TestSandboxListAnyMaker(t *testing.T) {
	f := newFixture(t, false)
	tpl := f.template(t)
	marks := platform.NewMarks("team")
	own := f.box(t, platform.SandboxSpec{TemplateID: tpl, Marks: marks, Labels: map[string]string{"team": "a"}})
	other := f.box(t, platform.SandboxSpec{TemplateID: tpl})
	// Another client's box: its tags are the team's only, as the SDK sets them.
	sb, err := f.p.client.Sandboxes.FromID(f.ctx, other.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer release(sb)
	if err := sb.SetTags(f.ctx, map[string]string{"team": "a"}, nil); err != nil {
		t.Fatal(err)
	}
	platformtest.CheckAnyMaker(t, f.p.Sandboxes(), platform.SandboxFilter{Labels: map[string]string{"team": "a"}}, marks, own.ID, other.ID)
}

package modal

import (
	"slices"
	"testing"

	modal "github.com/modal-labs/modal-client/go"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestSandboxForeignUnreported: a box another client made (Modal's SDK
// without the provider: no tags) reads with its name, template and memory
// snapshot setting unreported, not as "none"; a box the provider made
// reports them from its tags.
func TestSandboxForeignUnreported(t *testing.T) {
	f := newFixture(t, false)
	tpl := f.template(t)
	app, err := f.p.appFor(f.ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	img, err := f.p.client.Images.FromID(f.ctx, tpl, nil)
	if err != nil {
		t.Fatal(err)
	}
	by, err := f.p.client.Sandboxes.Create(f.ctx, app, img, &modal.SandboxCreateParams{Name: "by-hand"})
	if err != nil {
		t.Fatal(err)
	}
	release(by)
	mine := f.box(t, platform.SandboxSpec{Name: "mine", TemplateID: tpl})

	tests := []struct {
		name, id string
		want     []string
	}{
		{"made by another client", by.SandboxID, foreignUnreported},
		{"made by the provider", mine.ID, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := f.p.Sandboxes().Get(f.ctx, tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Unreported, tt.want) {
				t.Fatalf("Unreported = %v, want %v", got.Unreported, tt.want)
			}
			if tt.want == nil && (got.Name != "mine" || got.TemplateID != tpl) {
				t.Fatalf("name %q, template %q: want them read from the tags", got.Name, got.TemplateID)
			}
		})
	}
	for _, key := range foreignUnreported {
		if attrs := capabilities().Attributes; attrs.Get(key).Unreported {
			t.Errorf("%s is an Unreported row: a foreign box need not say so", key)
		}
	}
}

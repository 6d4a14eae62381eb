package modal

import (
	"slices"
	"testing"

	modal "github.com/modal-labs/modal-client/go"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestSandboxForeignReported: a box another client made (Modal's SDK
// without the provider: none of its tags) reads, by id and in a list, with
// the name and image its app's list reports (SandboxInfo), the image as its
// template; only its memory snapshot setting stays unreported. A box the
// provider made reports them from its tags, and one the list does not show
// yet (made a moment ago) reads with them unreported, not as "none".
func TestSandboxForeignReported(t *testing.T) {
	memOnly := []string{platform.AttrSandboxMemorySnapshots}
	tests := []struct {
		name               string
		byHand, settled    bool
		wantUnreported     []string
		wantName, wantTmpl bool
	}{
		{name: "made by another client, listed", byHand: true, settled: true, wantUnreported: memOnly, wantName: true, wantTmpl: true},
		{name: "made by another client a moment ago", byHand: true, wantUnreported: foreignUnreported},
		{name: "made by the provider", settled: true, wantName: true, wantTmpl: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, false)
			if tt.settled {
				f.w.Instant()
			}
			tpl := f.template(t)
			id, want := "", "mine"
			if tt.byHand {
				id, want = f.byHand(t, tpl, map[string]string{"team": "a"}), "by-hand"
			} else {
				id = f.box(t, platform.SandboxSpec{Name: want, TemplateID: tpl}).ID
			}
			got, err := f.p.Sandboxes().Get(f.ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			check := func(how string, got platform.Sandbox) {
				t.Helper()
				if !slices.Equal(got.Unreported, tt.wantUnreported) {
					t.Errorf("%s: Unreported = %v, want %v", how, got.Unreported, tt.wantUnreported)
				}
				if tt.wantName && got.Name != want {
					t.Errorf("%s: name %q, want %q", how, got.Name, want)
				}
				if tt.wantTmpl && got.TemplateID != tpl {
					t.Errorf("%s: template %q, want the image it was made from, %q", how, got.TemplateID, tpl)
				}
				// Modal ends a box at its timeout (the SDK's default, 5
				// minutes, for the box made by hand): the deadline is known.
				if tt.wantName && (got.CreatedAt.IsZero() || got.ExpiresAt.Sub(got.CreatedAt) != defaultSandboxTimeout) {
					t.Errorf("%s: made at %v, expires at %v: want a deadline %v after it was made", how, got.CreatedAt, got.ExpiresAt, defaultSandboxTimeout)
				}
			}
			check("Get", *got)
			if !tt.settled {
				return
			}
			boxes, err := f.p.Sandboxes().List(f.ctx, platform.SandboxFilter{AnyMaker: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(boxes) != 1 || boxes[0].ID != id {
				t.Fatalf("List = %v, want %s alone", boxes, id)
			}
			check("List", boxes[0])
		})
	}
	for _, key := range foreignUnreported {
		if attrs := capabilities().Attributes; attrs.Get(key).Unreported {
			t.Errorf("%s is an Unreported row: a foreign box need not say so", key)
		}
	}
}

// byHand makes a box as a user's program on Modal's SDK would: named
// "by-hand", from the image tpl, with tags set by SetTags.
func (f *fixture) byHand(t *testing.T, tpl string, tags map[string]string) string {
	t.Helper()
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
	defer release(by)
	if err := by.SetTags(f.ctx, tags, nil); err != nil {
		t.Fatal(err)
	}
	return by.SandboxID
}

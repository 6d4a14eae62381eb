package daytona

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

func TestInventory(t *testing.T) {
	// What the inventory makes of a list is the subject, not the list's lag
	// behind a create, which an orphans run (long after the create) never
	// meets.
	f := newFixture(t, daytonafake.Options{ListLagLists: -1})
	ctx := context.Background()
	mine := f.box(t, "", platform.SandboxSpec{Name: "mine", Marks: platform.Marks{Owner: "ci", CreateToken: "t1"}})
	f.post(t, "/sandbox", map[string]any{"name": "by-hand"})
	inv := f.p.Extensions().Inventory
	got, err := inv.ListManaged(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Objects) != 1 || got.Objects[0].ID != mine.ID || got.Objects[0].Owner != "ci" || got.Objects[0].CreateToken != "t1" || got.Objects[0].Name != "mine" {
		t.Fatalf("objects %+v", got.Objects)
	}
	if len(got.Unchecked) != 3 {
		t.Errorf("unchecked %+v", got.Unchecked)
	}
	stale := got.Objects[0]
	stale.CreateToken = "other"
	if err := inv.RemoveManaged(ctx, stale); !errors.Is(err, platform.ErrConflict) {
		t.Errorf("a changed object was removed: %v", err)
	}
	if err := inv.RemoveManaged(ctx, got.Objects[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := f.p.Sandboxes().Get(ctx, mine.ID); !platform.IsNotFound(err) {
		t.Errorf("after removal: %v", err)
	}
}

// TestOrganizationHeader: organization_id is sent as
// X-Daytona-Organization-ID; the fake refuses another organisation.
func TestOrganizationHeader(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	for org, want := range map[string]int{f.srv.OrganizationID(): 0, "00000000-0000-4000-8000-000000000000": http.StatusForbidden} {
		p, err := New(Config{APIKey: testKey, APIURL: f.srv.URL(), OrganizationID: org})
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Volumes().List(context.Background(), platform.VolumeFilter{})
		if want == 0 && err != nil || want != 0 && !rest.IsStatus(err, want) {
			t.Errorf("organisation %s: %v", org, err)
		}
	}
}

package sandboxinventory

import (
	"context"
	"errors"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// boxService is a SandboxService holding boxes in a map; only what the
// inventory calls is implemented.
type boxService struct {
	platform.SandboxService
	boxes   map[string]platform.Sandbox
	listErr error
	deleted []string
}

func (s *boxService) List(context.Context, platform.SandboxFilter) ([]platform.Sandbox, error) {
	var out []platform.Sandbox
	for _, id := range []string{"a", "b", "c", "d"} {
		if sb, ok := s.boxes[id]; ok {
			out = append(out, sb)
		}
	}
	return out, s.listErr
}

func (s *boxService) Get(_ context.Context, id string) (*platform.Sandbox, error) {
	sb, ok := s.boxes[id]
	if !ok {
		return nil, &platform.NotFoundError{Kind: "sandbox", ID: id}
	}
	return &sb, nil
}

func (s *boxService) Delete(_ context.Context, id string) error {
	s.deleted = append(s.deleted, id)
	delete(s.boxes, id)
	return nil
}

func marked(owner, token string) map[string]string {
	return map[string]string{platform.LabelManaged: "true", platform.LabelKind: platform.KindSandbox, platform.LabelName: "box-" + token, platform.LabelOwner: owner, platform.LabelCreateToken: token}
}

func testBoxes() map[string]platform.Sandbox {
	return map[string]platform.Sandbox{
		"a": {ID: "a", Labels: marked("ci", "t1"), PlatformStatus: "running"},
		"b": {ID: "b", Labels: map[string]string{"team": "by-hand"}},
		"c": {ID: "c", Labels: map[string]string{platform.LabelManaged: "true", platform.LabelKind: platform.KindVolume}},
		"d": {ID: "d", Labels: marked("", "t2"), PlatformStatus: "paused"},
	}
}

func TestInventoryList(t *testing.T) {
	unchecked := []platform.UncheckedKind{{Kind: platform.KindVolume, Reason: "no labels"}}
	tests := []struct {
		name    string
		listErr error
		wantIDs []string
		wantErr bool
	}{
		{name: "only the provider's boxes", wantIDs: []string{"a", "d"}},
		{name: "a failed list", listErr: errors.New("boom"), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv := Inventory{Platform: "test", Sandboxes: &boxService{boxes: testBoxes(), listErr: tt.listErr}, Unchecked: unchecked}
			got, err := inv.ListManaged(context.Background())
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ListManaged = %+v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, o := range got.Objects {
				ids = append(ids, o.ID)
				if o.Kind != platform.KindSandbox || o.Name != "box-"+o.CreateToken {
					t.Errorf("object %+v", o)
				}
			}
			if len(ids) != len(tt.wantIDs) || ids[0] != tt.wantIDs[0] || ids[1] != tt.wantIDs[1] {
				t.Errorf("ids = %v, want %v", ids, tt.wantIDs)
			}
			if got.Objects[0].Owner != "ci" || got.Objects[0].Detail != "running" {
				t.Errorf("first object %+v", got.Objects[0])
			}
			if len(got.Unchecked) != 1 || &got.Unchecked[0] == &unchecked[0] {
				t.Errorf("unchecked = %+v, want a copy of the platform's", got.Unchecked)
			}
		})
	}
}

func TestInventoryRemove(t *testing.T) {
	listed := platform.ManagedObject{Kind: platform.KindSandbox, ID: "a", Owner: "ci", CreateToken: "t1"}
	tests := []struct {
		name    string
		obj     platform.ManagedObject
		want    error // nil: removed
		removed bool
	}{
		{name: "as listed", obj: listed, removed: true},
		{name: "another create's box", obj: platform.ManagedObject{Kind: platform.KindSandbox, ID: "a", Owner: "ci", CreateToken: "other"}, want: platform.ErrConflict},
		{name: "another owner's box", obj: platform.ManagedObject{Kind: platform.KindSandbox, ID: "a", Owner: "", CreateToken: "t1"}, want: platform.ErrConflict},
		{name: "not the provider's", obj: platform.ManagedObject{Kind: platform.KindSandbox, ID: "b"}, want: platform.ErrConflict},
		{name: "not a sandbox label", obj: platform.ManagedObject{Kind: platform.KindSandbox, ID: "c"}, want: platform.ErrConflict},
		{name: "gone", obj: platform.ManagedObject{Kind: platform.KindSandbox, ID: "z"}, want: platform.ErrNotFound},
		{name: "another kind", obj: platform.ManagedObject{Kind: platform.KindVolume, ID: "a"}, want: platform.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := &boxService{boxes: testBoxes()}
			err := Inventory{Platform: "test", Sandboxes: svc}.RemoveManaged(context.Background(), tt.obj)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("RemoveManaged = %v, want %v", err, tt.want)
			}
			if removed := len(svc.deleted) == 1; removed != tt.removed {
				t.Errorf("deleted = %v, want removed %v", svc.deleted, tt.removed)
			}
		})
	}
}

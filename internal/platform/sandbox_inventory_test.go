package platform

import (
	"context"
	"errors"
	"testing"
)

// boxService is a SandboxService holding boxes in a map; only what the
// inventory calls is implemented.
type boxService struct {
	SandboxService
	boxes   map[string]Sandbox
	listErr error
	deleted []string
}

func (s *boxService) List(context.Context, SandboxFilter) ([]Sandbox, error) {
	var out []Sandbox
	for _, id := range []string{"a", "b", "c", "d"} {
		if sb, ok := s.boxes[id]; ok {
			out = append(out, sb)
		}
	}
	return out, s.listErr
}

func (s *boxService) Get(_ context.Context, id string) (*Sandbox, error) {
	sb, ok := s.boxes[id]
	if !ok {
		return nil, &NotFoundError{Kind: "sandbox", ID: id}
	}
	return &sb, nil
}

func (s *boxService) Delete(_ context.Context, id string) error {
	s.deleted = append(s.deleted, id)
	delete(s.boxes, id)
	return nil
}

func marked(owner, token string) map[string]string {
	return map[string]string{LabelManaged: "true", LabelKind: KindSandbox, LabelName: "box-" + token, LabelOwner: owner, LabelCreateToken: token}
}

func testBoxes() map[string]Sandbox {
	return map[string]Sandbox{
		"a": {ID: "a", Labels: marked("ci", "t1"), PlatformStatus: "running"},
		"b": {ID: "b", Labels: map[string]string{"team": "by-hand"}},
		"c": {ID: "c", Labels: map[string]string{LabelManaged: "true", LabelKind: KindVolume}},
		"d": {ID: "d", Labels: marked("", "t2"), PlatformStatus: "paused"},
	}
}

func TestSandboxInventoryList(t *testing.T) {
	unchecked := []UncheckedKind{{Kind: KindVolume, Reason: "no labels"}}
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
			inv := SandboxInventory{Platform: "test", Sandboxes: &boxService{boxes: testBoxes(), listErr: tt.listErr}, Unchecked: unchecked}
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
				if o.Kind != KindSandbox || o.Name != "box-"+o.CreateToken {
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

func TestSandboxInventoryRemove(t *testing.T) {
	listed := ManagedObject{Kind: KindSandbox, ID: "a", Owner: "ci", CreateToken: "t1"}
	tests := []struct {
		name    string
		obj     ManagedObject
		want    error // nil: removed
		removed bool
	}{
		{name: "as listed", obj: listed, removed: true},
		{name: "another create's box", obj: ManagedObject{Kind: KindSandbox, ID: "a", Owner: "ci", CreateToken: "other"}, want: ErrConflict},
		{name: "another owner's box", obj: ManagedObject{Kind: KindSandbox, ID: "a", Owner: "", CreateToken: "t1"}, want: ErrConflict},
		{name: "not the provider's", obj: ManagedObject{Kind: KindSandbox, ID: "b"}, want: ErrConflict},
		{name: "not a sandbox label", obj: ManagedObject{Kind: KindSandbox, ID: "c"}, want: ErrConflict},
		{name: "gone", obj: ManagedObject{Kind: KindSandbox, ID: "z"}, want: ErrNotFound},
		{name: "another kind", obj: ManagedObject{Kind: KindVolume, ID: "a"}, want: ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := &boxService{boxes: testBoxes()}
			err := SandboxInventory{Platform: "test", Sandboxes: svc}.RemoveManaged(context.Background(), tt.obj)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("RemoveManaged = %v, want %v", err, tt.want)
			}
			if removed := len(svc.deleted) == 1; removed != tt.removed {
				t.Errorf("deleted = %v, want removed %v", svc.deleted, tt.removed)
			}
		})
	}
}

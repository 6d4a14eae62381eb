package platform

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// tokenBoxes is a SandboxService whose List filters by labels, listing a
// box only from the listAt-th list on (a platform whose listings lag).
type tokenBoxes struct {
	boxService
	lists  int
	listAt int
}

func (s *tokenBoxes) List(_ context.Context, f SandboxFilter) ([]Sandbox, error) {
	s.lists++
	if s.listErr != nil || s.lists < s.listAt {
		return nil, s.listErr
	}
	var out []Sandbox
	for _, sb := range testBoxes() {
		if sb.Labels[LabelCreateToken] == f.Labels[LabelCreateToken] {
			out = append(out, sb)
		}
	}
	return out, nil
}

func TestFindLostSandbox(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name       string
		token      string
		listAt     int
		listErr    error
		wantID     string // "" when no box is found
		wantWaited time.Duration
		wantErr    error
	}{
		{name: "listed at once", token: "t1", wantID: "a"},
		{name: "listed late", token: "t2", listAt: 3, wantID: "d", wantWaited: 3 * time.Second},
		{name: "never listed", token: "t9", wantWaited: LostCreateBound},
		{name: "list fails", token: "t1", listErr: boom, wantErr: boom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			boxes := &tokenBoxes{boxService: boxService{listErr: tt.listErr}, listAt: tt.listAt}
			noWait := func(context.Context, time.Duration) error { return nil }
			found, waited, err := FindLostSandbox(context.Background(), noWait, boxes, tt.token)
			id := ""
			if found != nil {
				id = found.ID
			}
			if id != tt.wantID || waited != tt.wantWaited || !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Errorf("FindLostSandbox = %q, %s, %v; want %q, %s, %v", id, waited, err, tt.wantID, tt.wantWaited, tt.wantErr)
			}
		})
	}
}

func TestLostSandbox(t *testing.T) {
	tests := []struct {
		name     string
		box      string
		marks    Marks
		wantWhat string
		wantFind []string
	}{
		{name: "unnamed, any owner", marks: Marks{CreateToken: "tok"}, wantWhat: "sandbox",
			wantFind: []string{"If it was made, its labels hold " + LabelCreateToken + "=tok: once Acme lists it, `terraform state pull | terraform-provider-sbx orphans -` shows it; "}},
		{name: "named, an owner", box: "web", marks: Marks{Owner: "ci", CreateToken: "tok"}, wantWhat: `sandbox "web"`,
			wantFind: []string{`orphans --owner "ci" -`, "import it (terraform import <address> <sandbox id>), then apply again."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			what, find := LostSandbox(tt.box, "Acme", "its labels hold", tt.marks)
			if what != tt.wantWhat {
				t.Errorf("what = %q, want %q", what, tt.wantWhat)
			}
			for _, w := range tt.wantFind {
				if !strings.Contains(find, w) {
					t.Errorf("find = %q, want it to contain %q", find, w)
				}
			}
		})
	}
}

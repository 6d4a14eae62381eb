package lostcreate

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// tokenBoxes is a SandboxService whose List filters by the create token,
// listing a box only from the listAt-th list on (a platform whose listings
// lag); only List is implemented, the one call FindSandbox makes.
type tokenBoxes struct {
	platform.SandboxService
	lists   int
	listAt  int
	listErr error
}

// tokenBoxesHeld are the boxes tokenBoxes lists, each with its token.
var tokenBoxesHeld = []platform.Sandbox{
	{ID: "a", Labels: map[string]string{platform.LabelCreateToken: "t1"}},
	{ID: "b", Labels: map[string]string{"team": "by-hand"}},
	{ID: "d", Labels: map[string]string{platform.LabelCreateToken: "t2"}},
}

func (s *tokenBoxes) List(_ context.Context, f platform.SandboxFilter) ([]platform.Sandbox, error) {
	s.lists++
	if s.listErr != nil || s.lists < s.listAt {
		return nil, s.listErr
	}
	var out []platform.Sandbox
	for _, sb := range tokenBoxesHeld {
		if sb.Labels[platform.LabelCreateToken] == f.Labels[platform.LabelCreateToken] {
			out = append(out, sb)
		}
	}
	return out, nil
}

func TestFindSandbox(t *testing.T) {
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
		{name: "never listed", token: "t9", wantWaited: Bound},
		{name: "list fails", token: "t1", listErr: boom, wantErr: boom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			boxes := &tokenBoxes{listErr: tt.listErr, listAt: tt.listAt}
			noWait := func(context.Context, time.Duration) error { return nil }
			found, waited, err := FindSandbox(context.Background(), noWait, boxes, tt.token)
			id := ""
			if found != nil {
				id = found.ID
			}
			if id != tt.wantID || waited != tt.wantWaited || !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Errorf("FindSandbox = %q, %s, %v; want %q, %s, %v", id, waited, err, tt.wantID, tt.wantWaited, tt.wantErr)
			}
		})
	}
}

func TestDescribeSandbox(t *testing.T) {
	tests := []struct {
		name     string
		box      string
		marks    platform.Marks
		wantWhat string
		wantFind []string
	}{
		{name: "unnamed, any owner", marks: platform.Marks{CreateToken: "tok"}, wantWhat: "sandbox",
			wantFind: []string{"If it was made, its labels hold " + platform.LabelCreateToken + "=tok: once Acme lists it, `terraform state pull | terraform-provider-sbx orphans -` shows it; "}},
		{name: "named, an owner", box: "web", marks: platform.Marks{Owner: "ci", CreateToken: "tok"}, wantWhat: `sandbox "web"`,
			wantFind: []string{`orphans --owner "ci" -`, "import it (terraform import <address> <sandbox id>), then apply again."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			what, find := DescribeSandbox(tt.box, "Acme", "its labels hold", tt.marks)
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

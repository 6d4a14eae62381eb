package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestIDOrNameLookup(t *testing.T) {
	vols := []platform.Volume{{ID: "v1", Name: "data"}, {ID: "v2", Name: "dup"}, {ID: "v3", Name: "dup"}, {ID: "v4", Name: "data-2"}}
	var getErr, listErr error
	lookup := idOrNameLookup[platform.Volume]{
		kind:         "volume",
		platformName: "docker",
		get: func(_ context.Context, id string) (*platform.Volume, error) {
			if getErr != nil {
				return nil, getErr
			}
			for _, v := range vols {
				if v.ID == id {
					return &v, nil
				}
			}
			return nil, fmt.Errorf("volume %s: %w", id, platform.ErrNotFound)
		},
		listNamed: func(_ context.Context, name string) ([]platform.Volume, error) {
			if listErr != nil {
				return nil, listErr
			}
			var out []platform.Volume
			for _, v := range vols { // a loose, prefix match like some platforms'
				if strings.HasPrefix(v.Name, name) {
					out = append(out, v)
				}
			}
			return out, nil
		},
		nameOf: func(v platform.Volume) string { return v.Name },
		idOf:   func(v platform.Volume) string { return v.ID },
	}

	cases := []struct {
		name, id, byName  string
		getErr, listErr   error
		wantID            string
		wantPath          path.Path
		wantSummary, want string
	}{
		{name: "by id", id: "v4", wantID: "v4"},
		{name: "by exact name among prefixes", byName: "data", wantID: "v1"},
		{name: "id not found", id: "nope", wantPath: path.Root("id"),
			wantSummary: "Volume not found", want: `No volume with id "nope" exists on docker.`},
		{name: "get fails", id: "v1", getErr: errors.New("boom"),
			wantSummary: "Failed to read volume", want: `volume "v1": boom`},
		{name: "list fails", byName: "data", listErr: errors.New("boom"),
			wantSummary: "Failed to list volumes", want: "boom"},
		{name: "no such name", byName: "missing", wantPath: path.Root("name"),
			wantSummary: "Volume lookup failed", want: `no volume named "missing" was found on the platform.`},
		{name: "several", byName: "dup", wantPath: path.Root("name"),
			wantSummary: "Volume lookup failed", want: `2 volumes are named "dup" (ids v2, v3); look the one you mean up by id instead.`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			getErr, listErr = tc.getErr, tc.listErr
			var diags diag.Diagnostics
			got, ok := lookup.find(t.Context(), tc.id, tc.byName, &diags)
			if tc.want == "" {
				if !ok || diags.HasError() || got.ID != tc.wantID {
					t.Fatalf("find = %+v, %v, %v; want id %s", got, ok, diags, tc.wantID)
				}
				return
			}
			if ok || diags.ErrorsCount() != 1 {
				t.Fatalf("find = %+v, %v, %v; want one error", got, ok, diags)
			}
			d := diags.Errors()[0]
			if d.Summary() != tc.wantSummary || d.Detail() != tc.want {
				t.Errorf("error = %q / %q, want %q / %q", d.Summary(), d.Detail(), tc.wantSummary, tc.want)
			}
			if wp, isAttr := d.(diag.DiagnosticWithPath); tc.wantPath.String() != "" && (!isAttr || !wp.Path().Equal(tc.wantPath)) {
				t.Errorf("error path = %v, want %s", d, tc.wantPath)
			}
		})
	}
}

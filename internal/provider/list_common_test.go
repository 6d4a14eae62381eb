package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestListNameFilter(t *testing.T) {
	names := []string{"cache-1", "cache-2", "scratch", "team-cache"}
	cases := []struct {
		name   string
		filter listNameFilter
		want   []string
	}{
		{"none", listNameFilter{}, names},
		{"exact", listNameFilter{Name: types.StringValue("scratch")}, []string{"scratch"}},
		{"prefix", listNameFilter{NamePrefix: types.StringValue("cache-")}, []string{"cache-1", "cache-2"}},
		{"regex", listNameFilter{NameRegex: types.StringValue("cache")}, []string{"cache-1", "cache-2", "team-cache"}},
		{"all of them", listNameFilter{NamePrefix: types.StringValue("cache"), NameRegex: types.StringValue("2$")}, []string{"cache-2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var diags diag.Diagnostics
			match := c.filter.matcher(&diags)
			if diags.HasError() {
				t.Fatal(diags)
			}
			var got []string
			for _, n := range names {
				if match(n) {
					got = append(got, n)
				}
			}
			if len(got) != len(c.want) {
				t.Fatalf("matched %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("matched %v, want %v", got, c.want)
				}
			}
		})
	}
	var diags diag.Diagnostics
	if (listNameFilter{NameRegex: types.StringValue("(")}).matcher(&diags); !diags.HasError() {
		t.Fatal("an invalid name_regex is no error")
	}
}

// Without include_resource a result is the identity and the name shown
// (the id when the object has no name), and Terraform's limit is kept.
func TestListResultsIdentityAndLimit(t *testing.T) {
	ctx := context.Background()
	b := &listBase{kind: "volume", platform: namedPlatform{name: "alpha"}}
	objs := []listedObject{{ID: "v1", Name: "one"}, {ID: "v2"}, {ID: "v3", Name: "three"}}
	req := list.ListRequest{ResourceSchema: newVolumeResourceSchema(t), ResourceIdentitySchema: objectIdentitySchema, Limit: 2}
	var got []objectIdentity
	var shown []string
	for r := range b.results(ctx, req, objs) {
		if r.Diagnostics.HasError() {
			t.Fatal(r.Diagnostics)
		}
		var ident objectIdentity
		if d := r.Identity.Get(ctx, &ident); d.HasError() {
			t.Fatal(d)
		}
		got = append(got, ident)
		shown = append(shown, r.DisplayName)
		if r.Resource != nil && !r.Resource.Raw.IsNull() {
			t.Fatalf("result %s carries a resource though none was asked for", r.DisplayName)
		}
	}
	if len(got) != 2 || got[0].ID.ValueString() != "v1" || got[1].ID.ValueString() != "v2" ||
		got[0].Platform.ValueString() != "alpha" || shown[0] != "one" || shown[1] != "v2" {
		t.Fatalf("results %+v shown as %v; want v1 (one) and v2 (v2) on alpha, and no more", got, shown)
	}
}

// TestPlural: the list resources' descriptions name their objects in the
// plural, "sandboxes" included.
func TestPlural(t *testing.T) {
	for kind, want := range map[string]string{"sandbox": "sandboxes", "volume": "volumes", "template": "templates", "snapshot": "snapshots"} {
		if got := plural(kind); got != want {
			t.Errorf("plural(%q) = %q, want %q", kind, got, want)
		}
	}
	if d := listDescription("sandbox", ""); !strings.Contains(d, "existing sandboxes on") {
		t.Errorf("listDescription(sandbox) = %q, want it to speak of sandboxes", d)
	}
}

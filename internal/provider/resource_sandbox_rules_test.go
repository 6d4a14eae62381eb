package provider

import (
	"context"
	"testing"

	fwattr "github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// regionRules is a rule of the kind Fly has: a volume and the machine that
// mounts it must be in one region. Volumes named "eu-*" live in eu, the
// box in us.
type regionRules struct{ seen []platform.SandboxPlan }

func (r *regionRules) CheckSandbox(_ context.Context, plan platform.SandboxPlan) []platform.Problem {
	r.seen = append(r.seen, plan)
	var out []platform.Problem
	for i, m := range plan.Spec.VolumeMounts {
		if len(m.VolumeID) > 3 && m.VolumeID[:3] == "eu-" {
			out = append(out, platform.Problem{Attribute: "volume_mount", Index: i, Field: "volume_id",
				Summary: "Volume in another region", Detail: m.VolumeID + " is in eu; the box runs in us"})
		}
	}
	return out
}

func mountsOf(ids ...types.String) types.List {
	objType := types.ObjectType{AttrTypes: sandboxMountAttrTypes}
	elems := make([]fwattr.Value, 0, len(ids))
	for i, id := range ids {
		elems = append(elems, types.ObjectValueMust(sandboxMountAttrTypes, map[string]fwattr.Value{
			"volume_id": id, "path": types.StringValue("/data" + string(rune('0'+i))), "read_only": types.BoolValue(false), "subpath": types.StringNull(),
		}))
	}
	return types.ListValueMust(objType, elems)
}

func TestSandboxCheckRules(t *testing.T) {
	tests := []struct {
		name      string
		mounts    types.List
		wantPath  path.Path
		wantKnown bool
	}{
		{"a volume in the box's region passes", mountsOf(types.StringValue("us-data")), path.Empty(), true},
		{"a volume elsewhere is an error on its volume_id", mountsOf(types.StringValue("us-data"), types.StringValue("eu-data")),
			path.Root("volume_mount").AtListIndex(1).AtName("volume_id"), true},
		{"an unknown volume id is said to be unknown", mountsOf(types.StringUnknown()), path.Empty(), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rules := &regionRules{}
			plat := &sandboxFakePlatform{boxes: &sandboxFakeBoxes{}, vols: &sandboxFakeVolumes{},
				extensions: platform.Extensions{SandboxRules: rules}}
			m := sandboxModel{TemplateID: types.StringValue("tpl"), State: types.StringValue("running"), VolumeMounts: tc.mounts,
				Env: types.MapNull(types.StringType), Labels: types.MapNull(types.StringType)}
			var diags diag.Diagnostics
			sandboxCheckRules(context.Background(), plat, m, true, "", nil, &diags)
			if len(rules.seen) != 1 || rules.seen[0].MountsKnown != tc.wantKnown || !rules.seen[0].Creating {
				t.Fatalf("rules saw %+v, want one create plan with MountsKnown %v", rules.seen, tc.wantKnown)
			}
			if tc.wantPath.Equal(path.Empty()) {
				if diags.HasError() {
					t.Fatalf("unexpected errors: %v", diags)
				}
				return
			}
			if diags.ErrorsCount() != 1 {
				t.Fatalf("diagnostics %v, want one error", diags)
			}
			got, ok := diags.Errors()[0].(diag.DiagnosticWithPath)
			if !ok || !got.Path().Equal(tc.wantPath) {
				t.Errorf("error %v, want it on %s", diags.Errors()[0], tc.wantPath)
			}
		})
	}
	// A platform offering no rules is not asked.
	var diags diag.Diagnostics
	sandboxCheckRules(context.Background(), &sandboxFakePlatform{}, sandboxModel{}, true, "", nil, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
}

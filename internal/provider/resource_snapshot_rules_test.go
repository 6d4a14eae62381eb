package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// memoryOnlyOnWindows is a SnapshotRules that refuses memory snapshots,
// as Daytona refuses them of boxes that are not Windows-class.
type memoryOnlyOnWindows struct{ seen []platform.SnapshotSpec }

func (r *memoryOnlyOnWindows) CheckSnapshot(_ context.Context, spec platform.SnapshotSpec) []platform.Problem {
	r.seen = append(r.seen, spec)
	if !spec.IncludeMemory {
		return nil
	}
	return []platform.Problem{{Attribute: "include_memory", Index: -1, Summary: "memory snapshot refused",
		Detail: "box " + spec.SandboxID + " is not Windows-class"}}
}

// TestSnapshotCheckRules: the platform's snapshot rules see a new snapshot
// whose source is known, and each problem is an error on its attribute; a
// source not known yet is left to the apply.
func TestSnapshotCheckRules(t *testing.T) {
	tests := []struct {
		name      string
		sandboxID types.String
		memory    types.Bool
		wantSeen  bool
		wantErr   bool
	}{
		{"memory snapshot of a known box: refused on include_memory", types.StringValue("box-1"), types.BoolValue(true), true, true},
		{"filesystem snapshot of a known box: passes", types.StringValue("box-1"), types.BoolValue(false), true, false},
		{"box not known yet: judged at apply", types.StringUnknown(), types.BoolValue(true), false, false},
		{"include_memory not known yet: judged at apply", types.StringValue("box-1"), types.BoolUnknown(), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules := &memoryOnlyOnWindows{}
			plat := &sandboxFakePlatform{extensions: platform.Extensions{SnapshotRules: rules}}
			plan := snapshotModel{SandboxID: tt.sandboxID, VolumeID: types.StringNull(), IncludeMemory: tt.memory,
				Name: types.StringValue("cp")}
			var diags diag.Diagnostics
			snapshotCheckRules(context.Background(), plat, plan, &diags)
			if seen := len(rules.seen) == 1; seen != tt.wantSeen {
				t.Fatalf("rules saw %v, want a call: %v", rules.seen, tt.wantSeen)
			}
			if tt.wantSeen && (rules.seen[0].SandboxID != "box-1" || rules.seen[0].Name != "cp") {
				t.Errorf("rules saw %+v, want box-1 and name cp", rules.seen[0])
			}
			if diags.HasError() != tt.wantErr {
				t.Fatalf("errors %v, want error: %v", diags, tt.wantErr)
			}
			if tt.wantErr {
				wp, ok := diags.Errors()[0].(diag.DiagnosticWithPath)
				if !ok || !wp.Path().Equal(path.Root("include_memory")) || !strings.Contains(wp.Detail(), "box-1") {
					t.Errorf("error %v, want one on include_memory naming the box", diags.Errors()[0])
				}
			}
		})
	}
}

// TestSandboxSubpathProblem: the subpath rules Daytona's server applies.
func TestSandboxSubpathProblem(t *testing.T) {
	tests := []struct{ subpath, want string }{
		{"agent-1", ""},
		{"projects/a/b", ""},
		{"", "is empty"},
		{"/abs", "starts with /"},
		{"a/../b", "contains .."},
		{"..", "contains .."},
		{"a//b", "consecutive slashes"},
	}
	for _, tt := range tests {
		got := sandboxSubpathProblem(tt.subpath)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("sandboxSubpathProblem(%q) = %q, want %q", tt.subpath, got, tt.want)
		}
	}
}

// TestSnapshotNameWhereSnapshotsHaveNone: where the platform's snapshots
// have no name (Fly), a configured name is a plan-time error naming it,
// never a name kept only in state; left out, nothing is said.
func TestSnapshotNameWhereSnapshotsHaveNone(t *testing.T) {
	caps := platform.Capabilities{Attributes: platform.Attributes{platform.AttrSnapshotVolumeID: {Support: platform.Replace}}}
	tests := []struct {
		name    string
		snap    types.String
		wantErr bool
	}{
		{"a name is refused", types.StringValue("checkpoint"), true},
		{"no name passes", types.StringNull(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			config := snapshotModel{VolumeID: types.StringValue("vol1"), SandboxID: types.StringNull(), Name: tt.snap,
				IncludeMemory: types.BoolNull(), TTL: types.StringNull(), Labels: types.MapNull(types.StringType)}
			var diags diag.Diagnostics
			snapshotCheckCapabilities("plat", caps, config, &diags)
			if diags.HasError() != tt.wantErr {
				t.Fatalf("diagnostics %v, want an error: %v", diags, tt.wantErr)
			}
			if tt.wantErr {
				wp, ok := diags.Errors()[0].(diag.DiagnosticWithPath)
				if !ok || !wp.Path().Equal(path.Root("name")) || !strings.Contains(wp.Detail(), `name = "checkpoint": plat snapshots have no name`) {
					t.Errorf("error %v, want one on name saying plat snapshots have no name", diags.Errors()[0])
				}
			}
		})
	}
	caps.SnapshotNames = true
	var diags diag.Diagnostics
	snapshotCheckCapabilities("plat", caps, snapshotModel{VolumeID: types.StringValue("vol1"), SandboxID: types.StringNull(),
		Name: types.StringValue("checkpoint"), IncludeMemory: types.BoolNull(), TTL: types.StringNull(),
		Labels: types.MapNull(types.StringType)}, &diags)
	if diags.HasError() {
		t.Errorf("a platform with snapshot names refused one: %v", diags)
	}
}

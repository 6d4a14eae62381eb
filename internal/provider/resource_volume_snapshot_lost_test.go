package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A change of a volume's from_snapshot_id replaces it only while the
// snapshot recorded in state exists; once it is gone the volume is kept,
// the planned value is recorded in place and the plan warns, naming the
// volume and the lost snapshot.
func TestVolumeFromSnapshotReplaces(t *testing.T) {
	ctx := context.Background()
	restored := func(snap types.String) volumeModel {
		m := volumeTestModel()
		m.FromSnapshotID = snap
		return m
	}
	cases := []struct {
		name        string
		existing    []string
		noPlatform  bool
		state, plan volumeModel
		wantReplace bool
		wantWarn    []string
	}{
		{name: "unchanged", state: restored(types.StringValue("snap-a")), plan: restored(types.StringValue("snap-a"))},
		{name: "its snapshot replaced while it exists", existing: []string{"snap-a"},
			state: restored(types.StringValue("snap-a")), plan: restored(types.StringUnknown()), wantReplace: true},
		{name: "its snapshot lost and created anew",
			state: restored(types.StringValue("snap-a")), plan: restored(types.StringUnknown()),
			wantWarn: []string{`"vol"`, `"snap-a"`, "no longer exists on fakeplat", "known only after apply", "kept, with its data", "-replace"}},
		{name: "restore removed", state: restored(types.StringValue("snap-a")), plan: restored(types.StringNull()), wantReplace: true},
		{name: "no platform to ask", noPlatform: true,
			state: restored(types.StringValue("snap-a")), plan: restored(types.StringUnknown()), wantReplace: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := &volumeResource{}
			if !tc.noPlatform {
				r.platform = &sandboxSnapshotLostPlatform{existing: tc.existing}
			}
			state := tc.state
			var diags diag.Diagnostics
			if got := volumeFromSnapshotReplaces(ctx, r.platform, tc.plan, &state, &diags); got != tc.wantReplace {
				t.Errorf("replaces = %t, want %t", got, tc.wantReplace)
			}
			want := tc.state.FromSnapshotID
			if tc.wantWarn != nil {
				want = tc.plan.FromSnapshotID
			}
			if !state.FromSnapshotID.Equal(want) {
				t.Errorf("state's from_snapshot_id %s after planning %s", state.FromSnapshotID, tc.plan.FromSnapshotID)
			}
			warnings := diags.Warnings()
			if tc.wantWarn == nil {
				if len(warnings) > 0 {
					t.Errorf("unexpected warnings: %v", warnings)
				}
				return
			}
			if len(warnings) != 1 {
				t.Fatalf("want one warning, got %v", warnings)
			}
			for _, w := range tc.wantWarn {
				if !strings.Contains(warnings[0].Detail(), w) {
					t.Errorf("warning %q does not contain %q", warnings[0].Detail(), w)
				}
			}
		})
	}
}

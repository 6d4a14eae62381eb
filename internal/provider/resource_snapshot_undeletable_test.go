package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestSnapshotUndeletableKinds: a snapshot of a kind the platform cannot
// delete (SnapshotUndeletableKinds) is destroyed as on a platform that
// deletes no snapshot: the plan warns, and the destroy removes it from
// state without calling the platform, giving when it expires; a snapshot
// of any other kind is deleted.
func TestSnapshotUndeletableKinds(t *testing.T) {
	ctx := context.Background()
	const expires = "2026-03-08T00:00:00Z"
	memoryKept := platform.Capabilities{SnapshotDelete: true, SnapshotUndeletableKinds: []platform.SnapshotKind{platform.SnapshotMemory}}
	cases := []struct {
		name      string
		caps      platform.Capabilities
		kind      types.String
		expiresAt types.String
		wantCalls int
		wantWarn  []string // substrings of the plan's and the destroy's warning; nil: no warning
	}{
		{name: "undeletable kind is forgotten with its expiry", caps: memoryKept, kind: types.StringValue("memory"),
			expiresAt: types.StringValue(expires),
			wantWarn:  []string{"fakeplat cannot delete memory snapshots", `"sha256:x"`, "deletes it by itself at " + expires}},
		{name: "undeletable kind without expiry says so", caps: memoryKept, kind: types.StringValue("memory"),
			expiresAt: types.StringNull(), wantWarn: []string{"cannot delete memory snapshots", "no expiry date"}},
		{name: "another kind is deleted", caps: memoryKept, kind: types.StringValue("filesystem"),
			expiresAt: types.StringValue(expires), wantCalls: 1},
		{name: "no kind recorded is deleted", caps: memoryKept, kind: types.StringNull(), wantCalls: 1},
		{name: "a platform deleting no snapshot forgets every kind", caps: platform.Capabilities{},
			kind: types.StringValue("filesystem"), expiresAt: types.StringValue(expires),
			wantWarn: []string{"fakeplat cannot delete snapshots:", expires}},
		{name: "a platform deleting every kind", caps: platform.Capabilities{SnapshotDelete: true},
			kind: types.StringValue("memory"), wantCalls: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fake := &snapshotTestFakePlatform{caps: tc.caps}
			r := &snapshotResource{platform: fake}
			m := snapshotTestModel()
			m.Kind, m.ExpiresAt = tc.kind, tc.expiresAt
			state := snapshotTestState(t, r, m)

			destroy := tfsdk.Plan{Schema: state.Schema, Raw: tftypes.NewValue(state.Schema.Type().TerraformType(ctx), nil)}
			planResp := resource.ModifyPlanResponse{Plan: destroy}
			r.ModifyPlan(ctx, resource.ModifyPlanRequest{Plan: destroy, State: state}, &planResp)
			snapshotUndeletableExpect(t, "plan", planResp.Diagnostics.Warnings(), tc.wantWarn)
			snapshotTestExpectDiag(t, planResp.Diagnostics.Errors(), "")

			delResp := resource.DeleteResponse{State: state}
			r.Delete(ctx, resource.DeleteRequest{State: state}, &delResp)
			snapshotUndeletableExpect(t, "destroy", delResp.Diagnostics.Warnings(), tc.wantWarn)
			snapshotTestExpectDiag(t, delResp.Diagnostics.Errors(), "")
			if fake.snaps.deleteCalls != tc.wantCalls {
				t.Errorf("platform Delete called %d times, want %d", fake.snaps.deleteCalls, tc.wantCalls)
			}
		})
	}
}

// snapshotUndeletableExpect checks one warning holding every want, or
// none when want is nil.
func snapshotUndeletableExpect(t *testing.T, what string, warnings diag.Diagnostics, want []string) {
	t.Helper()
	if want == nil {
		if len(warnings) > 0 {
			t.Errorf("%s: unexpected warnings: %v", what, warnings)
		}
		return
	}
	if len(warnings) != 1 {
		t.Fatalf("%s: want one warning, got %v", what, warnings)
	}
	for _, w := range want {
		snapshotTestExpectDiag(t, warnings, w)
	}
}

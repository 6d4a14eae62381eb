package provider

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A change of from_snapshot_id replaces the box only while the snapshot
// recorded in state exists; once it is gone the box is kept, the planned
// value is recorded in place and the plan warns, naming the box and the
// lost snapshot.
func TestSandboxFromSnapshotReplaces(t *testing.T) {
	ctx := context.Background()
	restored := func(snap types.String) sandboxModel {
		m := sandboxTestModel()
		m.TemplateID, m.FromSnapshotID = types.StringNull(), snap
		return m
	}
	fromTemplate := sandboxTestModel()
	cases := []struct {
		name        string
		existing    []string // snapshots on the platform
		getErr      error
		noPlatform  bool
		state, plan sandboxModel
		wantReplace bool
		wantError   bool
		wantWarn    []string // all in one warning; nil: no warning
	}{
		{name: "unchanged", state: restored(types.StringValue("snap-a")), plan: restored(types.StringValue("snap-a"))},
		{name: "another existing snapshot while the recorded one exists", existing: []string{"snap-a", "snap-b"},
			state: restored(types.StringValue("snap-a")), plan: restored(types.StringValue("snap-b")), wantReplace: true},
		{name: "its snapshot replaced while it exists", existing: []string{"snap-a"},
			state: restored(types.StringValue("snap-a")), plan: restored(types.StringUnknown()), wantReplace: true},
		{name: "its snapshot lost and created anew",
			state: restored(types.StringValue("snap-a")), plan: restored(types.StringUnknown()),
			wantWarn: []string{"box1", `"snap-a"`, "no longer exists on fakeplat", "known only after apply", "kept, with its data",
				"-replace"}},
		{name: "its snapshot lost, another existing one configured", existing: []string{"snap-b"},
			state: restored(types.StringValue("snap-a")), plan: restored(types.StringValue("snap-b")),
			wantWarn: []string{`"snap-a"`, `is now "snap-b"`, "kept, with its data"}},
		{name: "the platform cannot tell", getErr: errors.New("connection refused"),
			state: restored(types.StringValue("snap-a")), plan: restored(types.StringUnknown()), wantReplace: true, wantError: true},
		{name: "switched to a template", state: restored(types.StringValue("snap-a")), plan: fromTemplate, wantReplace: true},
		{name: "switched from a template", state: fromTemplate, plan: restored(types.StringValue("snap-a")), wantReplace: true},
		{name: "no platform to ask", noPlatform: true,
			state: restored(types.StringValue("snap-a")), plan: restored(types.StringUnknown()), wantReplace: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := &sandboxResource{}
			if !tc.noPlatform {
				r.platform = &sandboxSnapshotLostPlatform{existing: tc.existing, err: tc.getErr}
			}
			state := tc.state
			var diags diag.Diagnostics
			replace := r.fromSnapshotReplaces(ctx, tc.plan, &state, &diags)
			if replace != tc.wantReplace {
				t.Errorf("replaces = %t, want %t", replace, tc.wantReplace)
			}
			if diags.HasError() != tc.wantError {
				t.Errorf("errors: %v", diags.Errors())
			}
			// A kept box counts as no change of from_snapshot_id from here on.
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

// sandboxSnapshotLostPlatform holds the snapshots existing; a Get of any
// other is not found, or fails with err when set.
type sandboxSnapshotLostPlatform struct {
	snapshotTestFakePlatform
	existing []string
	err      error
}

func (f *sandboxSnapshotLostPlatform) Snapshots() platform.SnapshotService {
	return sandboxSnapshotLostSnaps{&f.snaps, f}
}

type sandboxSnapshotLostSnaps struct {
	*snapshotTestFakeSnapshots
	f *sandboxSnapshotLostPlatform
}

func (s sandboxSnapshotLostSnaps) Get(_ context.Context, id string) (*platform.Snapshot, error) {
	if s.f.err != nil {
		return nil, s.f.err
	}
	for _, e := range s.f.existing {
		if e == id {
			return &platform.Snapshot{ID: id}, nil
		}
	}
	return nil, &platform.NotFoundError{Kind: "snapshot", ID: id}
}

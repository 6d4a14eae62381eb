package provider

import (
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestSnapshotApplyKeepsRecordedTimes: when a snapshot was made and when
// it expires never change, so a read that cannot tell them (a platform
// that knows them only from a record it no longer finds) keeps what state
// holds, and a read that tells them wins.
func TestSnapshotApplyKeepsRecordedTimes(t *testing.T) {
	made := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	expires := made.Add(7 * 24 * time.Hour)
	caps := platform.Capabilities{SnapshotCreatedAt: true}
	tests := []struct {
		name                       string
		stateCreated, stateExpires types.String
		read                       platform.Snapshot
		wantCreated, wantExpires   string // "" = null
	}{
		{name: "a read that tells nothing keeps the recorded times",
			stateCreated: types.StringValue(made.Format(time.RFC3339)), stateExpires: types.StringValue(expires.Format(time.RFC3339)),
			read:        platform.Snapshot{ID: "sn-1", Kind: platform.SnapshotMemory},
			wantCreated: made.Format(time.RFC3339), wantExpires: expires.Format(time.RFC3339)},
		{name: "a read that tells them wins",
			stateCreated: types.StringValue(made.Format(time.RFC3339)), stateExpires: types.StringValue(expires.Format(time.RFC3339)),
			read:        platform.Snapshot{ID: "sn-1", Kind: platform.SnapshotMemory, CreatedAt: made.Add(time.Minute), ExpiresAt: expires.Add(time.Minute)},
			wantCreated: made.Add(time.Minute).Format(time.RFC3339), wantExpires: expires.Add(time.Minute).Format(time.RFC3339)},
		{name: "nothing recorded and nothing told is null",
			stateCreated: types.StringUnknown(), stateExpires: types.StringUnknown(),
			read: platform.Snapshot{ID: "sn-1", Kind: platform.SnapshotMemory}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := snapshotModel{CreatedAt: tt.stateCreated, ExpiresAt: tt.stateExpires, IncludeMemory: types.BoolValue(true),
				Labels: types.MapNull(types.StringType), Name: types.StringNull(), ParentSnapshotID: types.StringNull()}
			m.applySnapshot(caps, &tt.read)
			if got := m.CreatedAt.ValueString(); got != tt.wantCreated || m.CreatedAt.IsNull() != (tt.wantCreated == "") {
				t.Errorf("created_at = %s, want %q", m.CreatedAt, tt.wantCreated)
			}
			if got := m.ExpiresAt.ValueString(); got != tt.wantExpires || m.ExpiresAt.IsNull() != (tt.wantExpires == "") {
				t.Errorf("expires_at = %s, want %q", m.ExpiresAt, tt.wantExpires)
			}
		})
	}
}

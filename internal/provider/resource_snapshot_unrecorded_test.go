package provider

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// An object the platform cannot tell from a snapshot, with no record of
// the provider taking it, is never deleted by a destroy unless this
// resource created it, and is no snapshot to import.
func TestSnapshotUnrecordedDestroy(t *testing.T) {
	const why = "im-x is an Image with no record"
	tests := []struct {
		name       string
		created    bool
		get        *platform.Snapshot
		wantForget bool
		wantWarn   string
	}{
		{"created here: deleted without asking", true, &platform.Snapshot{ID: "im-x", Unrecorded: why}, false, ""},
		{"imported, recorded by the platform: deleted", false, &platform.Snapshot{ID: "im-x"}, false, ""},
		{"imported, unrecorded: left in place with a warning", false, &platform.Snapshot{ID: "im-x", Unrecorded: why}, true, why},
		{"gone already: left to the delete, which tolerates it", false, nil, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			fake := &snapshotTestFakePlatform{caps: platform.Capabilities{SnapshotDelete: true}}
			fake.snaps.get = tt.get
			priv := memoryPrivate{}
			var diags diag.Diagnostics
			if tt.created {
				recordSnapshotCreated(ctx, priv, &diags)
			}
			got := forgetUnrecorded(ctx, fake, priv, "im-x", noSleep, &diags)
			if got != tt.wantForget || diags.HasError() {
				t.Fatalf("forget = %v, want %v (%v)", got, tt.wantForget, diags)
			}
			if tt.wantWarn == "" && diags.WarningsCount() > 0 {
				t.Fatalf("unexpected warning: %v", diags)
			}
			if tt.wantWarn != "" && (diags.WarningsCount() != 1 || !strings.Contains(diags.Warnings()[0].Detail(), tt.wantWarn)) {
				t.Fatalf("want one warning saying %q, got %v", tt.wantWarn, diags)
			}
		})
	}
}

func TestSnapshotUnrecordedImport(t *testing.T) {
	const why = "im-x is the template Image of sandbox sb-1"
	tests := []struct {
		name    string
		get     *platform.Snapshot
		wantErr string
	}{
		{"recorded", &platform.Snapshot{ID: "im-x"}, ""},
		{"unrecorded: an error saying what it is", &platform.Snapshot{ID: "im-x", Unrecorded: why}, why},
		{"nothing there", nil, "not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snaps := &snapshotTestFakeSnapshots{get: tt.get}
			_, err := snapshotToImport(context.Background(), snaps, "im-x", noSleep)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("import: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("import error %v, want one saying %q", err, tt.wantErr)
			}
			if tt.get == nil && !errors.Is(err, platform.ErrNotFound) {
				t.Fatalf("nothing there: %v, want not found", err)
			}
		})
	}
}

// noSleep is a wait that ends at once.
func noSleep(context.Context, time.Duration) error { return nil }

// A record that shows only on the second read (a list lagging behind a
// snapshot taken a moment ago) is a snapshot: imported, and deleted.
func TestSnapshotUnrecordedSettles(t *testing.T) {
	ctx := context.Background()
	snaps := &settlingSnapshots{}
	if _, err := snapshotToImport(ctx, snaps, "im-x", noSleep); err != nil || snaps.reads != 2 {
		t.Fatalf("import: %v after %d reads, want success after 2", err, snaps.reads)
	}
	fake := &settlingPlatform{snaps: &settlingSnapshots{}}
	var diags diag.Diagnostics
	if forgetUnrecorded(ctx, fake, memoryPrivate{}, "im-x", noSleep, &diags) || diags.WarningsCount() > 0 {
		t.Fatalf("destroy leaves a snapshot recorded on the second read in place: %v", diags)
	}
}

// settlingSnapshots reads im-x unrecorded the first time, recorded after.
type settlingSnapshots struct {
	snapshotTestFakeSnapshots
	reads int
}

func (s *settlingSnapshots) Get(_ context.Context, id string) (*platform.Snapshot, error) {
	s.reads++
	if s.reads == 1 {
		return &platform.Snapshot{ID: id, Unrecorded: "not yet"}, nil
	}
	return &platform.Snapshot{ID: id}, nil
}

type settlingPlatform struct {
	snapshotTestFakePlatform
	snaps *settlingSnapshots
}

func (f *settlingPlatform) Snapshots() platform.SnapshotService { return f.snaps }

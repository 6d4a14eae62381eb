package docker

import (
	"context"
	"errors"
	"maps"
	"testing"
	"time"

	"github.com/docker/docker/api/types/image"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// The engine's history says nothing of empty layers; snapshotImageHistory
// infers them from sizes, the commit's own layer count and the
// instructions, and falls back to one entry per layer.
func TestSnapshotImageHistory(t *testing.T) {
	h := func(createdBy string, size int64) image.HistoryResponseItem {
		return image.HistoryResponseItem{CreatedBy: createdBy, Size: size, Created: 1700000000}
	}
	newestFirst := func(items ...image.HistoryResponseItem) []image.HistoryResponseItem {
		out := make([]image.HistoryResponseItem, len(items))
		for i, it := range items {
			out[len(items)-1-i] = it
		}
		return out
	}
	const created = "2026-01-02T03:04:05.123456789Z"
	cases := []struct {
		name                 string
		items                []image.HistoryResponseItem // oldest first
		layers, parentLayers int
		wantEmpty            []bool
	}{
		{"classic builder, commit without changes", newestFirst(
			h("/bin/sh -c #(nop) COPY file:abc in /agent ", 2700000), h(`/bin/sh -c #(nop)  CMD ["/agent"]`, 0), h("/agent", 0)),
			1, 1, []bool{false, true, true}},
		{"commit of a box that only deleted files", newestFirst(
			h("/bin/sh -c #(nop) COPY file:abc in /agent ", 2700000), h(`/bin/sh -c #(nop)  CMD ["/agent"]`, 0), h("/agent", 0)),
			2, 1, []bool{false, true, false}},
		{"a RUN that made an empty layer", newestFirst(
			h("/bin/sh -c #(nop) ADD file:base in / ", 5000), h("/bin/sh -c mkdir /work", 0), h("/bin/sh -c #(nop)  ENV A=b", 0), h("/agent", 12)),
			3, 2, []bool{false, false, true, false}},
		{"BuildKit entries, source unknown", newestFirst(
			h("ENV A=b", 0), h("RUN /bin/sh -c true # buildkit", 0), h("COPY agent /agent # buildkit", 10)),
			2, -1, []bool{true, false, false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := snapshotImageHistory(tc.items, tc.layers, tc.parentLayers, created)
			if len(got) != len(tc.wantEmpty) {
				t.Fatalf("history = %+v", got)
			}
			for i, g := range got {
				if g.EmptyLayer != tc.wantEmpty[i] || g.CreatedBy != tc.items[len(tc.items)-1-i].CreatedBy {
					t.Errorf("entry %d = %+v, want empty_layer %v", i, g, tc.wantEmpty[i])
				}
			}
			if last := got[len(got)-1].Created; last == nil || last.Format("2006-01-02T15:04:05.999999999Z07:00") != created {
				t.Errorf("the commit's entry has time %v, want the image's %s", last, created)
			}
		})
	}
	t.Run("more sized entries than layers", func(t *testing.T) {
		got := snapshotImageHistory(newestFirst(h("a", 1), h("b", 2)), 1, -1, created)
		if len(got) != 1 || got[0].EmptyLayer || got[0].Created == nil {
			t.Fatalf("history = %+v, want one plain entry per layer", got)
		}
	})
}

// A snapshot image keeps the box's labels that are not the provider's and
// the few a restore reads; every other reserved label is the snapshot's.
func TestSnapshotImageLabels(t *testing.T) {
	box := managedLabels(kindSandbox, "box", platform.Marks{Owner: "a", CreateToken: "box"}, map[string]string{"team": "x"})
	box[labelTemplateID], box[labelReadyCmd], box[labelMemoryMB] = "sbx/t:latest", `["true"]`, "512"
	box["org.opencontainers.image.title"] = "agent"
	own := snapshotLabels(kindSnapshot, "", "box-id", "", "", platform.Marks{CreateToken: "snap"}, nil)
	got := snapshotImageLabels(box, own)
	want := maps.Clone(own)
	want["team"], want["org.opencontainers.image.title"] = "x", "agent"
	want[labelReadyCmd], want[labelMemoryMB] = `["true"]`, "512"
	if !maps.Equal(got, want) {
		t.Fatalf("labels = %v\nwant %v", got, want)
	}
}

// A snapshot spec the engine cannot take is refused before any engine call
// (the platform has no engine client here): memory, a ttl, and not exactly
// one source. What needs the engine (a missing sandbox) is in
// TestSnapshotCreateRefusals.
func TestSnapshotCreateRefusesSpec(t *testing.T) {
	s := &snapshots{}
	for _, tc := range []struct {
		name string
		spec platform.SnapshotSpec
		is   error
	}{
		{"memory", platform.SnapshotSpec{SandboxID: "x", IncludeMemory: true}, platform.ErrUnsupported},
		{"ttl", platform.SnapshotSpec{SandboxID: "x", TTL: time.Hour}, platform.ErrUnsupported},
		{"neither source", platform.SnapshotSpec{}, nil},
		{"both sources", platform.SnapshotSpec{SandboxID: "a", VolumeID: "b"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Create(context.Background(), tc.spec)
			if err == nil || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Fatalf("Create(%+v) = %v, want %v", tc.spec, err, tc.is)
			}
		})
	}
}

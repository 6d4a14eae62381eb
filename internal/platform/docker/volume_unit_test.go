package docker

import (
	"reflect"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/volume"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestMountersOf(t *testing.T) {
	helperLabels := managedLabels(kindHelperContainer, "", platform.Marks{}, nil)
	list := []container.Summary{
		{ID: "c2", Mounts: []container.MountPoint{{Type: "volume", Name: "data"}, {Type: "bind", Name: "", Source: "/host"}}},
		{ID: "c1", Mounts: []container.MountPoint{{Type: "volume", Name: "data"}, {Type: "volume", Name: "cache"}}},
		{ID: "h1", Labels: helperLabels, Mounts: []container.MountPoint{{Type: "volume", Name: "data"}}},
	}
	for _, tc := range []struct {
		name        string
		withHelpers bool
		want        map[string][]string
	}{
		{"sandboxes only", false, map[string][]string{"data": {"c1", "c2"}, "cache": {"c1"}}},
		{"with helpers", true, map[string][]string{"data": {"c1", "c2", "h1"}, "cache": {"c1"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mountersOf(list, tc.withHelpers); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("mountersOf = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestToVolume(t *testing.T) {
	labels := managedLabels(kindVolume, "data", platform.Marks{}, map[string]string{"team": "a"})
	labels[labelFromSnapshotID] = "sha256:abc"
	for _, tc := range []struct {
		name  string
		in    volume.Volume
		users []string
		want  platform.Volume
	}{
		{
			name:  "managed and attached",
			in:    volume.Volume{Name: "data", Labels: labels, CreatedAt: "2025-03-04T05:06:07Z"},
			users: []string{"c1"},
			want: platform.Volume{ID: "data", Name: "data", State: volumeStateAttached, FromSnapshotID: "sha256:abc",
				AttachedTo: []string{"c1"}, Labels: map[string]string{"team": "a"}, Managed: true,
				CreatedAt: time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)},
		},
		{
			name: "unmanaged, available, unparsable time",
			in:   volume.Volume{Name: "ext", Labels: map[string]string{"owner": "ops"}, CreatedAt: "yesterday"},
			want: platform.Volume{ID: "ext", Name: "ext", State: volumeStateAvailable, Labels: map[string]string{"owner": "ops"}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := toVolume(tc.in, tc.users)
			if !got.CreatedAt.Equal(tc.want.CreatedAt) {
				t.Fatalf("CreatedAt = %v, want %v", got.CreatedAt, tc.want.CreatedAt)
			}
			got.CreatedAt, tc.want.CreatedAt = time.Time{}, time.Time{}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("toVolume = %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

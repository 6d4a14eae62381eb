package modal

import (
	"reflect"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestMountTags: the mounts a box is made with read back from its tags in
// order; an unreadable record claims nothing rather than a part.
func TestMountTags(t *testing.T) {
	mounts := []platform.VolumeMount{
		{VolumeID: "work", Path: "/work"},
		{VolumeID: "ref", Path: "/ref: with colon", ReadOnly: true, Subpath: "docs/v1"},
	}
	tags := map[string]string{"team": "agents"}
	addMountTags(tags, mounts)
	if got := mountsOf(tags); !reflect.DeepEqual(got, mounts) {
		t.Fatalf("mountsOf = %+v, want %+v", got, mounts)
	}
	if got := mountsOf(map[string]string{"team": "agents"}); got != nil {
		t.Errorf("no records: %+v, want nil", got)
	}
	tags[tagMountPrefix+"1"] = "not json"
	if got := mountsOf(tags); got != nil {
		t.Errorf("an unreadable record: %+v, want nil", got)
	}
}

// TestSandboxReportsMounts: a box the provider made reads back with the
// mounts it was made with, so an import finds its volume_mount blocks.
func TestSandboxReportsMounts(t *testing.T) {
	f := newFixture(t, false)
	tpl := f.template(t)
	if _, err := f.p.Volumes().Create(f.ctx, platform.VolumeSpec{Name: "m-work"}); err != nil {
		t.Fatal(err)
	}
	want := []platform.VolumeMount{{VolumeID: "m-work", Path: "/data", ReadOnly: true, Subpath: "sub"}}
	box := f.box(t, platform.SandboxSpec{TemplateID: tpl, VolumeMounts: want})
	got, err := f.p.Sandboxes().Get(f.ctx, box.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.VolumeMounts, want) {
		t.Fatalf("mounts = %+v, want %+v", got.VolumeMounts, want)
	}
}

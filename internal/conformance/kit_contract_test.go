package conformance_test

import (
	"slices"
	"testing"

	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// TestKitContract holds every kit of the registry to what suites rely on
// beyond the conformance scenarios: a new instance holds none of the
// test's objects; a volume made by hand, as another client would, is one
// of the objects it lists, by its id and name and without the provider's
// marks; where volumes carry labels, relabelling it by hand shows in the
// listing; deleted out of band, it is gone from the platform and from the
// listing. A platform that makes nothing lists nothing.
func TestKitContract(t *testing.T) {
	for _, e := range kits.All() {
		t.Run(e.Kit.Name(), func(t *testing.T) {
			t.Parallel()
			in := platformtest.Start(t, e.Kit, platformtest.KitOptions{})
			if got := owned(in.Objects(t), in.Owner); len(got) > 0 {
				t.Fatalf("a new instance already holds objects of its owner: %v", got)
			}
			if in.TemplateConfig == nil {
				if got := in.Objects(t); len(got) > 0 {
					t.Errorf("%s makes nothing, but its kit lists %v", in.Name, got)
				}
				t.Skipf("%s makes nothing (its kit gives no template): no object to make by hand", in.Name)
			}
			// Underscores and lowercase: valid volume names everywhere
			// (Fly: ^[a-z0-9_]{1,30}$).
			name := "kit_" + sdkacctest.RandStringFromCharSet(10, "abcdefghijklmnopqrstuvwxyz0123456789")
			labelled := in.Capabilities.Accepts(platform.AttrVolumeLabels)
			var labels map[string]string
			if labelled {
				labels = map[string]string{"team": "ml"}
			}
			id := in.OutOfBand.Make(t, platformtest.Foreign{Kind: platformtest.KindVolume, Name: name, Labels: labels})
			t.Cleanup(func() {
				if in.OutOfBand.Exists(t, platformtest.KindVolume, id) {
					in.OutOfBand.Delete(t, platformtest.KindVolume, id)
				}
			})
			if !in.OutOfBand.Exists(t, platformtest.KindVolume, id) {
				t.Fatalf("the volume made by hand (%s) does not exist", id)
			}
			v, ok := find(in.Objects(t), platformtest.KindVolume, id)
			if !ok {
				t.Fatalf("the kit does not list the volume made by hand (%s): %v", id, in.Objects(t))
			}
			if v.Name != name {
				t.Errorf("listed volume %s is named %q, want %q", id, v.Name, name)
			}
			for _, mark := range []string{platform.LabelOwner, platform.LabelCreateToken} {
				if _, ok := v.Labels[mark]; ok {
					t.Errorf("the volume made by hand carries the provider's mark %s: %v", mark, v.Labels)
				}
			}
			if labelled {
				if v.Labels["team"] != "ml" {
					t.Errorf("the volume made by hand has labels %v, want team=ml among them", v.Labels)
				}
				in.OutOfBand.SetLabels(t, platformtest.KindVolume, id, map[string]string{"team": "infra"})
				if v, _ := find(in.Objects(t), platformtest.KindVolume, id); v.Labels["team"] != "infra" {
					t.Errorf("relabelled by hand, the volume has labels %v, want team=infra", v.Labels)
				}
			} else {
				t.Logf("%s volumes carry no labels (volume.labels refused): relabelling does not apply", in.Name)
			}
			in.OutOfBand.Delete(t, platformtest.KindVolume, id)
			if in.OutOfBand.Exists(t, platformtest.KindVolume, id) {
				t.Errorf("deleted out of band, the volume %s still exists", id)
			}
			if _, ok := find(in.Objects(t), platformtest.KindVolume, id); ok {
				t.Errorf("deleted out of band, the volume %s is still listed", id)
			}
		})
	}
}

// owned are the objects marked with owner.
func owned(objs []platformtest.Object, owner string) []platformtest.Object {
	return slices.DeleteFunc(slices.Clone(objs), func(o platformtest.Object) bool {
		return o.Labels[platform.LabelOwner] != owner
	})
}

// find is the object of kind and id.
func find(objs []platformtest.Object, kind, id string) (platformtest.Object, bool) {
	i := slices.IndexFunc(objs, func(o platformtest.Object) bool { return o.Kind == kind && o.ID == id })
	if i < 0 {
		return platformtest.Object{}, false
	}
	return objs[i], true
}

package docker

import (
	"reflect"
	"testing"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func invLabels(kind, name, owner, token string) map[string]string {
	return map[string]string{platform.LabelManaged: "true", platform.LabelKind: kind, platform.LabelName: name,
		platform.LabelOwner: owner, platform.LabelCreateToken: token}
}

const (
	invImgA = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	invImgB = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	invImgC = "sha256:cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"
	invImgD = "sha256:dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"
)

// TestInventoryImageKinds: a template is its tagged image (aliases: the
// image id); an untagged image with a template's labels is an older
// build, by image id; an image with another tag inherited the labels and
// is not listed; snapshots are listed by image id with their tags as
// aliases; helper images are never listed.
func TestInventoryImageKinds(t *testing.T) {
	cases := []struct {
		name    string
		img     image.Summary
		want    bool
		id      string
		aliases []string
		detail  string
	}{
		{"tagged template", image.Summary{ID: invImgA, RepoTags: []string{"sbx/agent:latest"}, Labels: invLabels(kindTemplate, "agent", "ci", "t1"), Created: 100},
			true, "sbx/agent:latest", []string{invImgA, invImgA[7:], "aaaaaaaaaaaa"}, "image aaaaaaaaaaaa"},
		{"older build", image.Summary{ID: invImgB, RepoTags: []string{"<none>:<none>"}, Labels: invLabels(kindTemplate, "agent", "ci", "t0")},
			true, invImgB, []string{invImgB[7:], "bbbbbbbbbbbb"}, "older build of sbx/agent:latest (untagged)"},
		{"user image FROM a template", image.Summary{ID: invImgC, RepoTags: []string{"me/derived:1"}, Labels: invLabels(kindTemplate, "agent", "ci", "t1")},
			false, "", nil, ""},
		{"volume snapshot", image.Summary{ID: invImgD, RepoTags: []string{"sbx/volume-snapshot:abc"}, Labels: invLabels(kindVolumeSnapshot, "s", "", "t2")},
			true, invImgD, []string{invImgD[7:], "dddddddddddd", "sbx/volume-snapshot:abc"}, "volume snapshot"},
		{"helper image", image.Summary{ID: invImgD, Labels: invLabels(kindHelper, "h", "", "")}, false, "", nil, ""},
		{"not managed", image.Summary{ID: invImgD, Labels: map[string]string{platform.LabelKind: kindSnapshot}}, false, "", nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := imageObject(c.img, []string{"z", "y"})
			if ok != c.want {
				t.Fatalf("listed = %v, want %v", ok, c.want)
			}
			if !ok {
				return
			}
			if got.ID != c.id || !reflect.DeepEqual(got.Aliases, c.aliases) || got.Detail != c.detail {
				t.Errorf("got id %q aliases %v detail %q\nwant id %q aliases %v detail %q", got.ID, got.Aliases, got.Detail, c.id, c.aliases, c.detail)
			}
			if !reflect.DeepEqual(got.UsedBy, []string{"y", "z"}) || got.CreateToken != c.img.Labels[platform.LabelCreateToken] {
				t.Errorf("used by %v, token %q", got.UsedBy, got.CreateToken)
			}
		})
	}
}

// TestInventoryContainers: sandboxes are listed with their name and short
// id as aliases; helper containers and containers that only inherited a
// template's labels (docker run of a template image) are not.
func TestInventoryContainers(t *testing.T) {
	id := "0123456789ab" + "0123456789abcdef0123456789abcdef0123456789abcdef0123"
	got, ok := containerObject(container.Summary{ID: id, Names: []string{"/sbx-1"}, State: "paused", Labels: invLabels(kindSandbox, "", "ci", "t")})
	if !ok || got.Kind != platform.KindSandbox || got.Name != "sbx-1" || got.Detail != "paused" ||
		!reflect.DeepEqual(got.Aliases, []string{"0123456789ab", "sbx-1"}) || got.Owner != "ci" {
		t.Errorf("sandbox: %v %+v", ok, got)
	}
	for _, kind := range []string{kindHelperContainer, kindTemplate} {
		if _, ok := containerObject(container.Summary{ID: id, Labels: invLabels(kind, "x", "", "")}); ok {
			t.Errorf("a container of kind %s is listed", kind)
		}
	}
}

// TestInventoryInheritedTokens: of the objects of one kind sharing a
// create token, only the one the create made stays: a template's tagged
// image, else the oldest. Other kinds and objects without a token stay.
func TestInventoryInheritedTokens(t *testing.T) {
	obj := func(kind, id, token string, created int64, certain bool) inventoried {
		return inventoried{ManagedObject: platform.ManagedObject{Kind: kind, ID: id, CreateToken: token, CreatedAt: unixTime(created)}, certain: certain}
	}
	found := []inventoried{
		obj(platform.KindTemplate, "dangling-from-t1", "t1", 50, false), // older than the tag, still not it
		obj(platform.KindTemplate, "sbx/t:latest", "t1", 100, true),
		obj(platform.KindTemplate, "older-build", "t0", 10, false),
		obj(platform.KindSnapshot, "snap", "s1", 100, false),
		obj(platform.KindSnapshot, "built-on-snap", "s1", 200, false),
		obj(platform.KindSandbox, "box", "s1", 300, false), // another kind: its own token space
		obj(platform.KindSandbox, "old-a", "", 1, false),
		obj(platform.KindSandbox, "old-b", "", 1, false),
		obj(platform.KindVolume, "tie-1", "v", 5, false),
		obj(platform.KindVolume, "tie-2", "v", 5, false),
	}
	var got []string
	for _, o := range madeByTheirToken(found) {
		got = append(got, o.ID)
	}
	want := []string{"sbx/t:latest", "older-build", "snap", "box", "old-a", "old-b", "tie-1", "tie-2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
}

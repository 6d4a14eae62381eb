package docker

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/volume"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var _ platform.Inventory = (*Platform)(nil)

// ListManaged implements platform.Inventory: every container of kind
// sandbox, every image of kind template, snapshot or volume-snapshot and
// every volume of kind volume that carries the managed label. The helper
// image, helper containers and the temporary volumes of a relabel are the
// provider's own machinery, made and removed within one call: never listed.
//
// Docker copies labels into what is made from an object (a container gets
// its image's, an image built FROM another or committed from a container
// gets its parent's), so labels alone do not prove who made an object:
//
//   - a template is an image tagged sbx/<name>:latest. An untagged image
//     with a template's labels is an older build the tag moved away from
//     (its id is the image id); an image with another tag is someone's
//     image built FROM a template, not the provider's;
//   - of several objects of one kind carrying the same create token, only
//     one was made by that create: the template's tagged image, else the
//     oldest. The others inherited the labels and are not listed.
//
// UsedBy lists the containers made from an image and the images built on
// it, and the containers mounting a volume (helpers aside).
func (p *Platform) ListManaged(ctx context.Context) (*platform.ManagedObjects, error) {
	containers, err := p.api.ContainerList(ctx, container.ListOptions{All: true})
	if err != nil {
		return nil, fmt.Errorf("listing containers: %w", err)
	}
	images, err := p.api.ImageList(ctx, image.ListOptions{All: true})
	if err != nil {
		return nil, fmt.Errorf("listing images: %w", err)
	}
	vols, err := p.api.VolumeList(ctx, volume.ListOptions{
		Filters: filters.NewArgs(filters.Arg("label", platform.LabelManaged+"=true")),
	})
	if err != nil {
		return nil, fmt.Errorf("listing volumes: %w", err)
	}

	imageUsers := map[string][]string{}
	for _, c := range containers {
		imageUsers[c.ImageID] = append(imageUsers[c.ImageID], c.ID)
	}
	for _, img := range images {
		if img.ParentID != "" {
			imageUsers[img.ParentID] = append(imageUsers[img.ParentID], img.ID)
		}
	}

	var found []inventoried
	for _, c := range containers {
		if o, ok := containerObject(c); ok {
			found = append(found, o)
		}
	}
	for _, img := range images {
		if o, ok := imageObject(img, imageUsers[img.ID]); ok {
			found = append(found, o)
		}
	}
	mounters := mountersOf(containers, false)
	for _, v := range vols.Volumes {
		if v == nil {
			continue
		}
		if o, ok := volumeObject(*v, mounters[v.Name]); ok {
			found = append(found, o)
		}
	}
	return &platform.ManagedObjects{Objects: madeByTheirToken(found)}, nil
}

// inventoried is one listed object, and whether it is the object its
// create made for certain (a template's tagged image).
type inventoried struct {
	platform.ManagedObject
	certain bool
}

func managedOfKind(labels map[string]string, kinds ...string) bool {
	if labels[platform.LabelManaged] != "true" {
		return false
	}
	for _, k := range kinds {
		if labels[platform.LabelKind] == k {
			return true
		}
	}
	return false
}

func marked(kind, id string, labels map[string]string) platform.ManagedObject {
	return platform.ManagedObject{
		Kind: kind, ID: id, Name: labels[platform.LabelName],
		Owner: labels[platform.LabelOwner], CreateToken: labels[platform.LabelCreateToken],
	}
}

func containerObject(c container.Summary) (inventoried, bool) {
	if !managedOfKind(c.Labels, kindSandbox) {
		return inventoried{}, false
	}
	o := marked(platform.KindSandbox, c.ID, c.Labels)
	o.Aliases = append(o.Aliases, shortHex(c.ID))
	for _, n := range c.Names {
		n = strings.TrimPrefix(n, "/")
		o.Aliases = append(o.Aliases, n)
		if o.Name == "" {
			o.Name = n
		}
	}
	o.CreatedAt = unixTime(c.Created)
	o.Detail = c.State
	return inventoried{ManagedObject: o}, true
}

func imageObject(img image.Summary, users []string) (inventoried, bool) {
	if !managedOfKind(img.Labels, kindTemplate, kindSnapshot, kindVolumeSnapshot) {
		return inventoried{}, false
	}
	tags := realTags(img.RepoTags)
	var o platform.ManagedObject
	certain := false
	switch img.Labels[platform.LabelKind] {
	case kindTemplate:
		tag := TemplateID(img.Labels[platform.LabelName])
		switch {
		case hasTag(tags, tag):
			o = marked(platform.KindTemplate, tag, img.Labels)
			o.Aliases = append(o.Aliases, img.ID, strings.TrimPrefix(img.ID, "sha256:"), shortHex(img.ID))
			o.Detail = "image " + shortHex(img.ID)
			certain = true
		case len(tags) == 0:
			o = marked(platform.KindTemplate, img.ID, img.Labels)
			o.Aliases = append(o.Aliases, strings.TrimPrefix(img.ID, "sha256:"), shortHex(img.ID))
			o.Detail = "older build of " + tag + " (untagged)"
		default:
			return inventoried{}, false // built FROM a template under another name
		}
	default:
		o = marked(platform.KindSnapshot, img.ID, img.Labels)
		o.Aliases = append(o.Aliases, strings.TrimPrefix(img.ID, "sha256:"), shortHex(img.ID))
		o.Aliases = append(o.Aliases, tags...)
		o.Detail = "sandbox snapshot"
		if img.Labels[platform.LabelKind] == kindVolumeSnapshot {
			o.Detail = "volume snapshot"
		}
	}
	o.CreatedAt = unixTime(img.Created)
	o.UsedBy = sortedCopy(users)
	return inventoried{ManagedObject: o, certain: certain}, true
}

func volumeObject(v volume.Volume, users []string) (inventoried, bool) {
	if !managedOfKind(v.Labels, kindVolume) {
		return inventoried{}, false
	}
	o := marked(platform.KindVolume, v.Name, v.Labels)
	if o.Name == "" {
		o.Name = v.Name
	}
	created := v.CreatedAt
	if first := v.Labels[labelCreatedAt]; first != "" {
		created = first // a relabelled volume keeps its first creation time
	}
	if t, err := time.Parse(time.RFC3339Nano, created); err == nil {
		o.CreatedAt = t.UTC()
	}
	o.UsedBy = sortedCopy(users)
	if len(users) > 0 {
		o.Detail = fmt.Sprintf("mounted by %d container(s)", len(users))
	}
	return inventoried{ManagedObject: o}, true
}

// madeByTheirToken drops the objects that only inherited a create token:
// of the objects of one kind sharing a token, the one known to be made by
// the create (a template's tagged image) stays, else the oldest (all of
// them when several are equally old). Objects without a token all stay.
func madeByTheirToken(found []inventoried) []platform.ManagedObject {
	type key struct{ kind, token string }
	groups := map[key][]int{}
	for i, o := range found {
		if o.CreateToken != "" {
			k := key{o.Kind, o.CreateToken}
			groups[k] = append(groups[k], i)
		}
	}
	drop := make([]bool, len(found))
	for _, idx := range groups {
		if len(idx) < 2 {
			continue
		}
		keep := func(i int) bool { return found[i].certain }
		if !anyOf(idx, keep) {
			oldest := found[idx[0]].CreatedAt
			for _, i := range idx[1:] {
				if found[i].CreatedAt.Before(oldest) {
					oldest = found[i].CreatedAt
				}
			}
			keep = func(i int) bool { return found[i].CreatedAt.Equal(oldest) }
		}
		for _, i := range idx {
			drop[i] = !keep(i)
		}
	}
	out := make([]platform.ManagedObject, 0, len(found))
	for i, o := range found {
		if !drop[i] {
			out = append(out, o.ManagedObject)
		}
	}
	return out
}

func anyOf(idx []int, f func(int) bool) bool {
	for _, i := range idx {
		if f(i) {
			return true
		}
	}
	return false
}

// realTags drops the "<none>:<none>" the engine lists for an untagged image.
func realTags(tags []string) []string {
	var out []string
	for _, t := range tags {
		if t != "" && t != "<none>:<none>" {
			out = append(out, t)
		}
	}
	return out
}

// shortHex is the 12-character form of a container or image id.
func shortHex(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func unixTime(sec int64) time.Time {
	if sec <= 0 {
		return time.Time{}
	}
	return time.Unix(sec, 0).UTC()
}

func sortedCopy(ids []string) []string {
	if len(ids) == 0 {
		return nil
	}
	out := append([]string(nil), ids...)
	sort.Strings(out)
	return out
}

// RemoveManaged implements platform.Inventory. Each object is read again
// and removed only when it still carries the marks it was listed with, so
// a template an apply rebuilt since (its tag now on a new build) is left
// alone. Removal goes through the services the resources use; an older
// template build, which has no tag to delete it by, is removed by image id
// unless it has been tagged since.
func (p *Platform) RemoveManaged(ctx context.Context, o platform.ManagedObject) error {
	switch o.Kind {
	case platform.KindSandbox:
		c, err := p.api.ContainerInspect(ctx, o.ID)
		if err != nil {
			return wrapErr(kindSandbox, o.ID, err)
		}
		if c.Config == nil || !managedOfKind(c.Config.Labels, kindSandbox) || !o.Carries(c.Config.Labels) {
			return o.ChangedError()
		}
		return p.Sandboxes().Delete(ctx, c.ID)
	case platform.KindVolume:
		v, err := p.api.VolumeInspect(ctx, o.ID)
		if err != nil {
			return wrapErr(kindVolume, o.ID, err)
		}
		if !managedOfKind(v.Labels, kindVolume) || !o.Carries(v.Labels) {
			return o.ChangedError()
		}
		return p.Volumes().Delete(ctx, v.Name)
	case platform.KindSnapshot:
		img, err := p.api.ImageInspect(ctx, o.ID)
		if err != nil {
			return wrapErr(kindSnapshot, o.ID, err)
		}
		labels := imageLabels(img)
		if !managedOfKind(labels, kindSnapshot, kindVolumeSnapshot) || !o.Carries(labels) {
			return o.ChangedError()
		}
		return p.Snapshots().Delete(ctx, img.ID)
	case platform.KindTemplate:
		img, err := p.api.ImageInspect(ctx, o.ID)
		if err != nil {
			return wrapErr(kindTemplate, o.ID, err)
		}
		labels := imageLabels(img)
		if !managedOfKind(labels, kindTemplate) || !o.Carries(labels) {
			return o.ChangedError()
		}
		if o.ID == TemplateID(labels[platform.LabelName]) {
			return p.Templates().Delete(ctx, o.ID)
		}
		if len(realTags(img.RepoTags)) > 0 {
			return o.ChangedError() // an older build someone has tagged since
		}
		_, err = p.api.ImageRemove(ctx, img.ID, image.RemoveOptions{PruneChildren: pruneBuildParents(labels)})
		if cerrdefs.IsConflict(err) {
			return &platform.ConflictError{Kind: kindTemplate, ID: o.ID,
				Reason: "still in use; delete the sandboxes made from it first (" + err.Error() + ")"}
		}
		return wrapErr(kindTemplate, o.ID, err)
	}
	return &platform.UnsupportedError{Platform: "docker", Capability: "removing objects of kind " + o.Kind}
}

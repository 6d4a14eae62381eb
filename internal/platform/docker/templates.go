package docker

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	dockerfileparse "github.com/sbxhq/terraform-provider-sbx/internal/dockerfile"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// A template is an image tagged sbx/<name>:latest. The tag is the template
// id: it survives rebuilds, which move it to the new image.
const (
	templateRepoPrefix = "sbx/"
	templateTag        = ":latest"
	// templateStatusReady is the only status a Docker template has: an
	// image exists once its build has finished.
	templateStatusReady = "ready"
)

// templateNameRE is the grammar of one image repository path component.
var templateNameRE = regexp.MustCompile(`^[a-z0-9]+([._-][a-z0-9]+)*$`)

// TemplateID is the template id (image tag) of the template called name.
func TemplateID(name string) string { return templateRepoPrefix + name + templateTag }

// templateNameFromID is the inverse of TemplateID.
func templateNameFromID(id string) (string, bool) {
	if !strings.HasPrefix(id, templateRepoPrefix) || !strings.HasSuffix(id, templateTag) {
		return "", false
	}
	return strings.TrimSuffix(strings.TrimPrefix(id, templateRepoPrefix), templateTag), true
}

type templates struct{ api *client.Client }

// Create builds the template, or adopts spec.Image, under the tag
// sbx/<name>:latest. An image already holding that tag is taken only when
// this very create made it (its create token, spec.Marks): anything else
// there (an image made by hand, another state's template, one an apply that
// was killed left behind) is a NotOwnedError, and the image is left as it
// is. Building over it would move its tag, and removing it as an "old
// build" would delete someone's image.
func (s *templates) Create(ctx context.Context, spec platform.TemplateSpec) (*platform.Template, error) {
	if err := checkTemplateSpec(spec); err != nil {
		return nil, err
	}
	spec.Marks = spec.Marks.Ensure()
	id := TemplateID(spec.Name)
	existing, err := s.api.ImageInspect(ctx, id)
	switch {
	case err == nil:
		labels := imageLabels(existing)
		if spec.Marks.MadeBy(labels) && isTemplateBuild(labels, spec.Name) {
			return s.Get(ctx, id) // this create's own image: a retried request
		}
		return nil, templateNotOwned(spec.Name, labels)
	case !cerrdefs.IsNotFound(err):
		return nil, wrapErr(kindTemplate, id, err)
	}
	// Nothing held the tag: there is no old build to remove. (Should
	// another create tag an image meanwhile, it stays, untagged.)
	return s.build(ctx, id, spec, false)
}

// Rebuild builds spec again and moves the template's tag to the new image.
// The image the tag leaves is removed only when it is a build the provider
// made of this template (see removeOldBuild).
func (s *templates) Rebuild(ctx context.Context, id string, spec platform.TemplateSpec) (*platform.Template, error) {
	if err := checkTemplateSpec(spec); err != nil {
		return nil, err
	}
	if want := TemplateID(spec.Name); id != want {
		return nil, fmt.Errorf("template %q cannot be rebuilt as %q: a template's name cannot change in place", id, spec.Name)
	}
	return s.build(ctx, id, spec, true)
}

// build builds (or adopts) spec under the tag id; with replacing, the image
// the tag held before is removed afterwards where removeOldBuild allows.
func (s *templates) build(ctx context.Context, id string, spec platform.TemplateSpec, replacing bool) (*platform.Template, error) {
	var old *image.InspectResponse
	if replacing {
		if img, err := s.api.ImageInspect(ctx, id); err == nil {
			old = &img
		}
	}
	labels := templateLabels(spec)
	var (
		newID string
		err   error
	)
	if spec.Image != "" {
		newID, err = s.adopt(ctx, id, spec, labels)
	} else {
		dockerfile := spec.Dockerfile
		if spec.FromTemplate != "" {
			if dockerfile, err = s.onTemplate(ctx, spec); err != nil {
				return nil, err
			}
		}
		newID, err = buildImage(ctx, s.api, spec.Name, id, dockerfile, spec.ContextDir, labels)
	}
	if err != nil {
		return nil, err
	}
	if old != nil && old.ID != newID {
		s.removeOldBuild(ctx, *old, spec.Name)
	}
	return s.Get(ctx, id)
}

// adopt makes the template from an existing image. The image is not just
// tagged: a one-line build (FROM the image, nothing sent but the Dockerfile)
// adds the provider's labels, so an adopted template is found by List and
// carries start_cmd, ready_cmd and its default size like a built one. The
// new image shares every layer with the adopted one.
func (s *templates) adopt(ctx context.Context, id string, spec platform.TemplateSpec, labels map[string]string) (string, error) {
	src, err := localImage(ctx, s.api, spec.Name, spec.Image)
	if err != nil {
		return "", err
	}
	labels[labelSourceImage] = spec.Image
	return buildImage(ctx, s.api, spec.Name, id, "FROM "+src.ID+"\n", "", labels)
}

// onTemplate is the Dockerfile of a template built on spec.FromTemplate:
// FROM the base template's current image (by its id, so a rebuild of the
// base moves nothing under this build), then the steps of spec.Dockerfile.
func (s *templates) onTemplate(ctx context.Context, spec platform.TemplateSpec) (string, error) {
	base, err := s.api.ImageInspect(ctx, spec.FromTemplate)
	if err != nil {
		if cerrdefs.IsNotFound(err) {
			return "", fmt.Errorf("template %q: from_template %q is not on the Docker engine: build that template first",
				spec.Name, spec.FromTemplate)
		}
		return "", wrapErr(kindTemplate, spec.FromTemplate, err)
	}
	if err := checkTemplateKind(imageLabels(base)); err != nil {
		return "", fmt.Errorf("template %q: from_template %q: %w", spec.Name, spec.FromTemplate, err)
	}
	return dockerfileOnImage(base.ID, spec.Dockerfile), nil
}

// dockerfileOnImage puts a Dockerfile without FROM on the image imageID:
// the FROM goes below its parser directives, which stay directives.
func dockerfileOnImage(imageID, dockerfile string) string {
	return dockerfileparse.InsertFirst(dockerfile, "FROM "+imageID)
}

// removeOldBuild removes the image a rebuild moved the tag away from, when
// it is a build the provider made of the template called name. Anything
// else that held the tag (an image a user made, or tagged there by hand) is
// not the provider's to remove: it stays, untagged. A sandbox may still run
// an old build; then the engine refuses and the image stays, which is what
// should happen. (Snapshots do not hold it: their images have no parent link.)
func (s *templates) removeOldBuild(ctx context.Context, old image.InspectResponse, name string) {
	labels := imageLabels(old)
	if !isTemplateBuild(labels, name) {
		tflog.Info(ctx, "keeping the image the rebuild moved the template's tag away from: the provider did not build it",
			map[string]any{"image": old.ID, "template": name})
		return
	}
	_, err := s.api.ImageRemove(ctx, old.ID, image.RemoveOptions{PruneChildren: pruneBuildParents(labels)})
	if err != nil {
		tflog.Debug(ctx, "keeping the previous template image: "+err.Error(), map[string]any{"image": old.ID})
	}
}

// Get reads a template by id. Any image reference works, so an image the
// provider did not make can be read (data source, import): read by its own
// reference it is a template made of that image as it is (see
// templateFromImage). An image the provider made as something else (a
// snapshot, its helper image) is not a template, and reading it as one is
// an error saying what it is.
func (s *templates) Get(ctx context.Context, id string) (*platform.Template, error) {
	img, err := s.api.ImageInspect(ctx, id)
	if err != nil {
		return nil, wrapErr(kindTemplate, id, err)
	}
	labels := imageLabels(img)
	if err := checkTemplateKind(labels); err != nil {
		return nil, err
	}
	return templateFromImage(id, img.ID, img.Created, labels, img.RepoTags), nil
}

// notTemplateError says an image the provider made as another kind of
// object was asked for as a template.
type notTemplateError struct {
	what     string // "a snapshot of a sandbox", ...
	kind     string // its sbx.terraform.kind label
	importAs string // the resource type that manages it; "" when none does
}

func (e *notTemplateError) Error() string {
	msg := fmt.Sprintf("the image is %s made by this provider (label %s=%s), not a template", e.what, platform.LabelKind, e.kind)
	if e.importAs == "" {
		return msg + "; it cannot be imported"
	}
	return msg + "; import it as " + e.importAs + " instead"
}

// Is makes errors.Is(err, platform.ErrConflict) true.
func (e *notTemplateError) Is(target error) bool { return target == platform.ErrConflict }

// checkTemplateKind rejects an image the provider made as another kind of
// object. Images without the provider's labels are not rejected: any image
// can be a template.
func checkTemplateKind(labels map[string]string) error {
	kind := labels[platform.LabelKind]
	if labels[platform.LabelManaged] != "true" || kind == "" || kind == kindTemplate {
		return nil
	}
	switch kind {
	case kindSnapshot:
		return &notTemplateError{what: "a snapshot of a sandbox", kind: kind, importAs: "sbx_snapshot"}
	case kindVolumeSnapshot:
		return &notTemplateError{what: "a snapshot of a volume", kind: kind, importAs: "sbx_snapshot"}
	case kindHelper:
		return &notTemplateError{what: "the helper image the provider runs its own short-lived containers from", kind: kind}
	default:
		return &notTemplateError{what: "a " + kind, kind: kind}
	}
}

// List returns the templates the provider made, by name.
func (s *templates) List(ctx context.Context, filter platform.TemplateFilter) ([]platform.Template, error) {
	args := filters.NewArgs(
		filters.Arg("label", platform.LabelManaged+"=true"),
		filters.Arg("label", platform.LabelKind+"="+kindTemplate),
	)
	if filter.Name != "" {
		args.Add("label", platform.LabelName+"="+filter.Name)
	}
	images, err := s.api.ImageList(ctx, image.ListOptions{Filters: args})
	if err != nil {
		return nil, fmt.Errorf("listing templates: %w", err)
	}
	var out []platform.Template
	for _, img := range images {
		id := TemplateID(img.Labels[platform.LabelName])
		// Older builds still used by a sandbox carry the same labels but
		// no longer the tag: they are not the template.
		if !hasTag(img.RepoTags, id) {
			continue
		}
		created := time.Unix(img.Created, 0).UTC().Format(time.RFC3339Nano)
		out = append(out, *templateFromImage(id, img.ID, created, img.Labels, img.RepoTags))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Delete removes the template's tag and, when nothing else uses it, its
// image. A template still used by a container (a sandbox, even a stopped
// one) is a conflict: forcing would delete an image a sandbox depends on.
//
// Only a template the provider built is removed: the image under its tag
// sbx/<name>:latest carrying the provider's labels for that name. Any other
// image (one imported by another reference, a user's image under a
// template's tag) is left as it is, tag included, and Delete returns a
// *platform.NotOwnedError saying so; the caller forgets the template
// without removing anything.
func (s *templates) Delete(ctx context.Context, id string) error {
	img, err := s.api.ImageInspect(ctx, id)
	if cerrdefs.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return wrapErr(kindTemplate, id, err)
	}
	labels := imageLabels(img)
	if name, ok := templateNameFromID(id); !ok || !isTemplateBuild(labels, name) {
		tmpl := templateFromImage(id, img.ID, img.Created, labels, img.RepoTags)
		return &platform.NotOwnedError{Kind: kindTemplate, Name: tmpl.Name, ID: id, Detail: templateProvenance(id, labels)}
	}
	_, err = s.api.ImageRemove(ctx, id, image.RemoveOptions{PruneChildren: pruneBuildParents(labels)})
	switch {
	case err == nil, cerrdefs.IsNotFound(err):
		return nil
	case cerrdefs.IsConflict(err):
		return &platform.ConflictError{Kind: kindTemplate, ID: id,
			Reason: "still in use; delete the sandboxes made from it first (" + err.Error() + ")"}
	default:
		return wrapErr(kindTemplate, id, err)
	}
}

// isTemplateBuild reports whether an image's labels are those of a build
// the provider made of the template called name.
func isTemplateBuild(labels map[string]string, name string) bool {
	return labels[platform.LabelManaged] == "true" && labels[platform.LabelKind] == kindTemplate &&
		labels[platform.LabelName] == name
}

// templateNotOwned is the error of a create whose tag another image holds.
// The image can be imported as the template unless the provider made it as
// another kind of object.
func templateNotOwned(name string, labels map[string]string) error {
	id := TemplateID(name)
	err := &platform.NotOwnedError{Kind: kindTemplate, Name: name, ID: id, Detail: templateProvenance(id, labels)}
	if checkTemplateKind(labels) != nil {
		err.ID = ""
	}
	return err
}

// templateProvenance says who made the image found under id, for a
// NotOwnedError.
func templateProvenance(id string, labels map[string]string) string {
	if labels[platform.LabelManaged] != "true" {
		return "image " + id + " was not built by this provider (it has no " + platform.LabelManaged + " label)"
	}
	if err := checkTemplateKind(labels); err != nil {
		return "image " + id + ": " + err.Error()
	}
	msg := "image " + id + " is a template the provider built"
	if o := labels[platform.LabelOwner]; o != "" {
		msg += " (owner " + strconv.Quote(o) + ")"
	}
	return msg + " for another Terraform state, in an apply that did not finish, or, in a create_before_destroy " +
		"replacement, as this resource's previous object, which holds the tag until it is destroyed"
}

// pruneBuildParents says whether removing an image may also remove its
// untagged parents. For a built template those are the build's own
// intermediate images; for an adopted one the parent is the user's image,
// which is not the provider's to remove even when it has no tag.
func pruneBuildParents(labels map[string]string) bool {
	return labels[labelSourceImage] == ""
}

// imageLabels are an image's config labels (nil for an image without config).
func imageLabels(img image.InspectResponse) map[string]string {
	if img.Config == nil {
		return nil
	}
	return img.Config.Labels
}

func hasTag(tags []string, tag string) bool {
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

// checkTemplateSpec rejects what Docker cannot build, before any work.
func checkTemplateSpec(spec platform.TemplateSpec) error {
	switch {
	case !templateNameRE.MatchString(spec.Name):
		return fmt.Errorf("template name %q cannot be a Docker image name: use lowercase letters and digits, "+
			"optionally separated by single '.', '_' or '-'", spec.Name)
	case spec.DiskMB != 0:
		return &platform.UnsupportedError{Platform: "docker", Capability: "disk_mb on templates"}
	case (spec.Dockerfile == "") == (spec.Image == ""):
		return fmt.Errorf("template %q: set exactly one of dockerfile and image", spec.Name)
	case spec.Image != "" && spec.ContextDir != "":
		return fmt.Errorf("template %q: context_dir is only used with dockerfile, not with image", spec.Name)
	case spec.FromTemplate != "" && spec.Dockerfile == "":
		return fmt.Errorf("template %q: from_template needs a dockerfile (its steps run on the template)", spec.Name)
	case spec.CPUCount < 0 || spec.MemoryMB < 0:
		return fmt.Errorf("template %q: cpu_count and memory_mb cannot be negative", spec.Name)
	}
	if err := checkTemplateDockerfile(spec); err != nil {
		return fmt.Errorf("template %q: %w", spec.Name, err)
	}
	for attr, cmd := range map[string]string{"start_cmd": spec.StartCmd, "ready_cmd": spec.ReadyCmd} {
		if _, err := parseCommand(cmd); err != nil {
			return fmt.Errorf("template %q: %s: %w", spec.Name, attr, err)
		}
	}
	return nil
}

// templateLabels are the labels a template's image carries: the user's, the
// provider's, and the settings sandboxes made from it take as defaults.
// Every key is set, even to "", so nothing is inherited from a base image
// that is itself a template.
func templateLabels(spec platform.TemplateSpec) map[string]string {
	labels := managedLabels(kindTemplate, spec.Name, spec.Marks, spec.Labels)
	labels[labelStartCmd] = spec.StartCmd
	labels[labelReadyCmd] = spec.ReadyCmd
	labels[labelCPUCount] = formatInt(spec.CPUCount)
	labels[labelMemoryMB] = formatInt(spec.MemoryMB)
	labels[labelSourceImage] = ""
	labels[labelFromTemplate] = spec.FromTemplate
	labels[labelContextHash] = ""
	if spec.Image == "" {
		labels[labelContextHash] = spec.ContextHash
	}
	return withUserLabelKeys(labels, spec.Labels)
}

// templateFromImage reads a template from the reference id it was read by,
// its image's id, creation time (RFC 3339), labels and tags.
//
// Read by a template's tag (sbx/<name>:latest), it is the template called
// name, whoever made the image. Read by any other reference it is that image
// as it is: its Image is the reference itself (what `image` names), and its
// name is the last component of the reference's repository (`team/agent:1.2`
// is "agent"; an image id stands for the first of its tags in sort order),
// or "" when that is no valid template name.
func templateFromImage(id, imageID, created string, labels map[string]string, tags []string) *platform.Template {
	t := &platform.Template{
		ID:       id,
		BuildID:  imageID,
		Status:   templateStatusReady,
		StartCmd: labels[labelStartCmd],
		ReadyCmd: labels[labelReadyCmd],
		CPUCount: labelInt(labels, labelCPUCount),
		MemoryMB: labelInt(labels, labelMemoryMB),
		Labels:   userLabelsOf(labels),
		Managed:  labels[platform.LabelManaged] == "true" && labels[platform.LabelKind] == kindTemplate,
		MadeWith: platform.MarksOf(labels),
	}
	if name, ok := templateNameFromID(id); ok {
		t.Name = name
		t.ForeignBuild = !isTemplateBuild(labels, name)
		t.Image = labels[labelSourceImage]
		t.FromTemplate = labels[labelFromTemplate]
		t.ContextHash = labels[labelContextHash]
	} else {
		t.Name = foreignTemplateName(id, imageID, tags)
		t.Image = id
	}
	if ts, err := time.Parse(time.RFC3339Nano, created); err == nil {
		t.CreatedAt = ts
	}
	return t
}

// foreignTemplateName is the name of the template an image read by ref is:
// the last component of ref's repository, or, when ref is the image's id,
// of the first of its tags in sort order. "" when that is no valid
// template name.
func foreignTemplateName(ref, imageID string, tags []string) string {
	hex := strings.TrimPrefix(imageID, "sha256:")
	if short := strings.TrimPrefix(ref, "sha256:"); short != "" && strings.HasPrefix(hex, short) {
		sorted := slices.Sorted(slices.Values(tags))
		if len(sorted) == 0 {
			return ""
		}
		ref = sorted[0]
	}
	if i := strings.Index(ref, "@"); i >= 0 {
		ref = ref[:i] // a digest
	}
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref = ref[:i] // a tag
	}
	name := ref[strings.LastIndex(ref, "/")+1:]
	if len(name) > 128 || !templateNameRE.MatchString(name) {
		return ""
	}
	return name
}

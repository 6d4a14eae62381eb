package docker

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/hashicorp/terraform-plugin-log/tflog"

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

// Create builds the template, or adopts spec.Image. Building again under a
// name that already exists (a create interrupted after the build) moves the
// tag to the new build, so there is never a second template of one name.
func (s *templates) Create(ctx context.Context, spec platform.TemplateSpec) (*platform.Template, error) {
	if err := checkTemplateSpec(spec); err != nil {
		return nil, err
	}
	return s.build(ctx, TemplateID(spec.Name), spec)
}

// Rebuild builds spec again and moves the template's tag to the new image.
func (s *templates) Rebuild(ctx context.Context, id string, spec platform.TemplateSpec) (*platform.Template, error) {
	if err := checkTemplateSpec(spec); err != nil {
		return nil, err
	}
	if want := TemplateID(spec.Name); id != want {
		return nil, fmt.Errorf("template %q cannot be rebuilt as %q: a template's name cannot change in place", id, spec.Name)
	}
	return s.build(ctx, id, spec)
}

func (s *templates) build(ctx context.Context, id string, spec platform.TemplateSpec) (*platform.Template, error) {
	var oldID string
	if old, err := s.api.ImageInspect(ctx, id); err == nil {
		oldID = old.ID
	}
	labels := templateLabels(spec)
	var (
		newID string
		err   error
	)
	if spec.Image != "" {
		newID, err = s.adopt(ctx, id, spec, labels)
	} else {
		newID, err = buildImage(ctx, s.api, spec.Name, id, spec.Dockerfile, spec.ContextDir, labels)
	}
	if err != nil {
		return nil, err
	}
	if oldID != "" && oldID != newID {
		s.removeOldBuild(ctx, oldID)
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

// removeOldBuild removes the image a rebuild moved the tag away from. A
// sandbox may still run it or a snapshot be made from it; then the engine
// refuses and the image stays, which is what should happen.
func (s *templates) removeOldBuild(ctx context.Context, imageID string) {
	old, err := s.api.ImageInspect(ctx, imageID)
	if err != nil {
		return
	}
	_, err = s.api.ImageRemove(ctx, imageID, image.RemoveOptions{PruneChildren: pruneBuildParents(imageLabels(old))})
	if err != nil {
		tflog.Debug(ctx, "keeping the previous template image: "+err.Error(), map[string]any{"image": imageID})
	}
}

// Get reads a template by id. Any image reference works, so an image the
// provider did not make can be read (data source, import).
func (s *templates) Get(ctx context.Context, id string) (*platform.Template, error) {
	img, err := s.api.ImageInspect(ctx, id)
	if err != nil {
		return nil, wrapErr(kindTemplate, id, err)
	}
	return templateFromImage(id, img.ID, img.Created, imageLabels(img)), nil
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
		out = append(out, *templateFromImage(id, img.ID, created, img.Labels))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Delete removes the template's tag and, when nothing else uses it, its
// image. A template still used by a container (a sandbox, even a stopped
// one) is a conflict: forcing would delete an image a sandbox depends on.
func (s *templates) Delete(ctx context.Context, id string) error {
	img, err := s.api.ImageInspect(ctx, id)
	if cerrdefs.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return wrapErr(kindTemplate, id, err)
	}
	_, err = s.api.ImageRemove(ctx, id, image.RemoveOptions{PruneChildren: pruneBuildParents(imageLabels(img))})
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
	case spec.CPUCount < 0 || spec.MemoryMB < 0:
		return fmt.Errorf("template %q: cpu_count and memory_mb cannot be negative", spec.Name)
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
	return withUserLabelKeys(labels, spec.Labels)
}

// templateFromImage reads a template from its image's id, creation time
// (RFC 3339) and labels.
func templateFromImage(id, imageID, created string, labels map[string]string) *platform.Template {
	name := labels[platform.LabelName]
	if name == "" {
		name, _ = templateNameFromID(id)
	}
	t := &platform.Template{
		ID:       id,
		Name:     name,
		BuildID:  imageID,
		Status:   templateStatusReady,
		Image:    labels[labelSourceImage],
		StartCmd: labels[labelStartCmd],
		ReadyCmd: labels[labelReadyCmd],
		CPUCount: labelInt(labels, labelCPUCount),
		MemoryMB: labelInt(labels, labelMemoryMB),
		Labels:   userLabelsOf(labels),
	}
	if ts, err := time.Parse(time.RFC3339Nano, created); err == nil {
		t.CreatedAt = ts
	}
	return t
}

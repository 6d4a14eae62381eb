package platformtest

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Profile is what the tests know of a platform whatever answers for it,
// its fake or the real service (the live kit, platformtest/live): how to
// write a template that runs the quickstart agent there, and what the
// platform cannot report back. A fake's kit builds its instances from its
// Profile, and offers it (Profiler) so the live kit needs nothing else.
type Profile struct {
	// Definition is the platform as the provider registers it.
	Definition platform.Definition
	// TemplateConfig returns the body attributes (including name) of an
	// sbx_template that runs the quickstart agent on the platform. image is
	// a registry reference to an image holding the agent, for a platform
	// that runs images rather than building them (ImageTemplates); the
	// others build the agent from its context and ignore it.
	TemplateConfig func(t *testing.T, name, image string) string
	// ImageTemplates says the platform's templates are images it pulls
	// (Fly, Modal): against the real service, the image must be one the
	// platform can reach (live: SBX_ACC_LIVE_IMAGE).
	ImageTemplates bool
	// ImportStateVerifyIgnore: see Instance.
	ImportStateVerifyIgnore map[string][]string
	// TemplatesInStateOnly: see Instance.
	TemplatesInStateOnly bool
	// SnapshotsHeldByRunningBoxes: see Instance.
	SnapshotsHeldByRunningBoxes bool
}

// Profiler is a kit that offers its platform's Profile.
type Profiler interface {
	Kit
	Profile() Profile
}

// OwnerPrefixer is a kit whose instances' owners start with a prefix of
// its own (the live kit's sbx-live-, which its sweep looks for), instead
// of the suites' kit-.
type OwnerPrefixer interface {
	OwnerPrefix() string
}

// NamePrefixer is a kit whose runs name their objects with a prefix of its
// own (the live kit's sbx-live-, so that what a failed run left on a real
// service can be found by name too, on kinds that carry no labels),
// instead of the suites' tf-acc-.
type NamePrefixer interface {
	NamePrefix() string
}

// Instance is an instance of the profiled platform with what the profile
// says filled in (its name, Definition, template configuration, what an
// import cannot read back): a kit's Start completes it with what reaches
// its fake or service. image is the registry reference ImageTemplates
// platforms run; the others ignore it.
func (p Profile) Instance(t *testing.T, image string) *Instance {
	return &Instance{
		Name:                        p.Definition.Name,
		Definition:                  p.Definition,
		TemplateConfig:              func(name string) string { return p.TemplateConfig(t, name, image) },
		ImportStateVerifyIgnore:     p.ImportStateVerifyIgnore,
		TemplatesInStateOnly:        p.TemplatesInStateOnly,
		SnapshotsHeldByRunningBoxes: p.SnapshotsHeldByRunningBoxes,
	}
}

// Package nothing is a platform that can do nothing: it makes no object and
// accepts almost no attribute. It exists to prove the seam: registering
// its Definition is all it takes for a provider block `nothing {}` to
// appear, for its settings to be read from the block or the environment,
// and for the conformance suite's refusal steps to run against its
// attribute table. Tests only; the provider never registers it.
package nothing

import (
	"context"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// Name is the platform's name and its provider block's.
const Name = "nothing"

// TokenEnv is the environment variable the token setting falls back to.
const TokenEnv = "SBX_NOTHING_TOKEN"

// Definition registers the platform.
func Definition() platform.Definition {
	return platform.Definition{
		Name:        Name,
		Title:       "Nothing",
		Description: "A test platform that can do nothing.",
		Settings: []platform.Setting{{
			Name: "token", Description: "A token that is never sent anywhere.",
			Env: []string{TokenEnv}, Required: true, Sensitive: true,
		}},
		Capabilities: func() platform.Capabilities { return (&Platform{}).Capabilities() },
		Configure: func(_ context.Context, cfg platform.Config) (platform.Platform, error) {
			return &Platform{token: cfg.Settings["token"]}, nil
		},
	}
}

// Platform is the configured platform.
type Platform struct{ token string }

var _ platform.Platform = (*Platform)(nil)

// errNothing is every operation's answer.
var errNothing = &platform.UnsupportedError{Platform: Name, Capability: "anything"}

// Name implements platform.Platform.
func (p *Platform) Name() string { return Name }

// Capabilities accepts a running box from a template and a volume by name,
// nothing else: every other attribute is refused.
func (p *Platform) Capabilities() platform.Capabilities {
	return platform.Capabilities{Attributes: platform.Attributes{
		platform.AttrSandboxState: {Support: platform.InPlace, Values: []string{string(platform.StateRunning)},
			Why: "boxes here only run"},
		// One volume per box, as on Fly: a second volume_mount is a plan-time error.
		platform.AttrSandboxVolumeMount: {Support: platform.Replace, Max: 1, Why: "a box mounts one volume here"},
		platform.AttrSandboxMountReadOnly: {Support: platform.Replace, Values: []string{"false"},
			Why: "volumes are mounted read-write"},
		platform.AttrTemplateImage: {Support: platform.Replace},
	}}
}

// Extensions implements platform.Platform: it offers none.
func (p *Platform) Extensions() platform.Extensions { return platform.Extensions{} }

// Close implements platform.Platform.
func (p *Platform) Close() error { return nil }

// Templates implements platform.Platform.
func (p *Platform) Templates() platform.TemplateService { return templates{} }

// Volumes implements platform.Platform.
func (p *Platform) Volumes() platform.VolumeService { return volumes{} }

// Sandboxes implements platform.Platform.
func (p *Platform) Sandboxes() platform.SandboxService { return sandboxes{} }

// Snapshots implements platform.Platform.
func (p *Platform) Snapshots() platform.SnapshotService { return snapshots{} }

type templates struct{}

func (templates) Create(context.Context, platform.TemplateSpec) (*platform.Template, error) {
	return nil, errNothing
}
func (templates) Rebuild(context.Context, string, platform.TemplateSpec) (*platform.Template, error) {
	return nil, errNothing
}
func (templates) Get(_ context.Context, id string) (*platform.Template, error) {
	return nil, &platform.NotFoundError{Kind: "template", ID: id}
}
func (templates) List(context.Context, platform.TemplateFilter) ([]platform.Template, error) {
	return nil, nil
}
func (templates) Delete(context.Context, string) error { return nil }

type volumes struct{}

func (volumes) Create(context.Context, platform.VolumeSpec) (*platform.Volume, error) {
	return nil, errNothing
}
func (volumes) Get(_ context.Context, id string) (*platform.Volume, error) {
	return nil, &platform.NotFoundError{Kind: "volume", ID: id}
}
func (volumes) List(context.Context, platform.VolumeFilter) ([]platform.Volume, error) {
	return nil, nil
}
func (volumes) Update(context.Context, string, platform.VolumeUpdate) (*platform.Volume, error) {
	return nil, errNothing
}
func (volumes) Delete(context.Context, string) error { return nil }

type sandboxes struct{}

func (sandboxes) Create(context.Context, platform.SandboxSpec) (*platform.Sandbox, error) {
	return nil, errNothing
}
func (sandboxes) Get(_ context.Context, id string) (*platform.Sandbox, error) {
	return nil, &platform.NotFoundError{Kind: "sandbox", ID: id}
}
func (sandboxes) List(context.Context, platform.SandboxFilter) ([]platform.Sandbox, error) {
	return nil, nil
}
func (sandboxes) SetState(context.Context, string, platform.SandboxState) (*platform.Sandbox, error) {
	return nil, errNothing
}
func (sandboxes) Update(context.Context, string, platform.SandboxUpdate) (*platform.Sandbox, error) {
	return nil, errNothing
}
func (sandboxes) Delete(context.Context, string) error { return nil }

type snapshots struct{}

func (snapshots) Create(context.Context, platform.SnapshotSpec) (*platform.Snapshot, error) {
	return nil, errNothing
}
func (snapshots) Get(_ context.Context, id string) (*platform.Snapshot, error) {
	return nil, &platform.NotFoundError{Kind: "snapshot", ID: id}
}
func (snapshots) List(context.Context, platform.SnapshotFilter) ([]platform.Snapshot, error) {
	return nil, nil
}
func (snapshots) Delete(context.Context, string) error { return nil }

// Token is the configured token (tests check the environment fallback).
func (p *Platform) Token() string { return p.token }

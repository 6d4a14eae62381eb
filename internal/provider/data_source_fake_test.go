package provider

import (
	"context"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// dataSourceFakeProvider is the sbx provider with its platform replaced by an
// in-memory one, so the data sources run through the real terraform CLI
// without Docker, and with objects (expired snapshots, unmanaged volumes,
// duplicate names) that are awkward to make on a real engine.
type dataSourceFakeProvider struct {
	*sbxProvider
	plat  platform.Platform
	clock clock.Clock
}

func (p *dataSourceFakeProvider) Configure(_ context.Context, _ provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	settings := defaultRetentionSettings()
	if p.clock != nil {
		settings.clock = p.clock
	}
	data := &providerData{platform: p.plat, retention: settings}
	resp.ResourceData = data
	resp.DataSourceData = data
}

// dataSourceFakeFactories serves the provider on the fake platform. A
// non-zero at stops the provider's clock there; zero means the wall clock.
func dataSourceFakeFactories(p platform.Platform, at time.Time) map[string]func() (tfprotov6.ProviderServer, error) {
	fake := &dataSourceFakeProvider{sbxProvider: &sbxProvider{version: "test"}, plat: p}
	if !at.IsZero() {
		fake.clock = clock.NewFake(at)
	}
	return map[string]func() (tfprotov6.ProviderServer, error){
		"sbx": providerserver.NewProtocol6WithError(fake),
	}
}

// dataSourceFakePlatform holds fixed objects; it only serves reads.
type dataSourceFakePlatform struct {
	snapshots []platform.Snapshot
	volumes   []platform.Volume
	templates []platform.Template
	// caps is the platform's capability row (zero: reports nothing).
	caps platform.Capabilities
	// listCalls counts snapshot List calls, to prove a filter reached the platform.
	lastSnapshotFilter platform.SnapshotFilter
}

func (f *dataSourceFakePlatform) Name() string                        { return "fake" }
func (f *dataSourceFakePlatform) Capabilities() platform.Capabilities { return f.caps }
func (f *dataSourceFakePlatform) Close() error                        { return nil }
func (f *dataSourceFakePlatform) Templates() platform.TemplateService {
	return dataSourceFakeTemplates{f}
}
func (f *dataSourceFakePlatform) Volumes() platform.VolumeService    { return dataSourceFakeVolumes{f} }
func (f *dataSourceFakePlatform) Sandboxes() platform.SandboxService { return nil }
func (f *dataSourceFakePlatform) Snapshots() platform.SnapshotService {
	return dataSourceFakeSnapshots{f}
}

var errDataSourceFakeReadOnly = &platform.UnsupportedError{Platform: "fake", Capability: "writes"}

type dataSourceFakeSnapshots struct{ f *dataSourceFakePlatform }

func (s dataSourceFakeSnapshots) Create(context.Context, platform.SnapshotSpec) (*platform.Snapshot, error) {
	return nil, errDataSourceFakeReadOnly
}
func (s dataSourceFakeSnapshots) Get(_ context.Context, id string) (*platform.Snapshot, error) {
	for _, x := range s.f.snapshots {
		if x.ID == id {
			return &x, nil
		}
	}
	return nil, &platform.NotFoundError{Kind: "snapshot", ID: id}
}

// List applies only the label filter, like a platform whose API filters by
// labels alone; the data source must apply the rest itself.
func (s dataSourceFakeSnapshots) List(_ context.Context, filter platform.SnapshotFilter) ([]platform.Snapshot, error) {
	s.f.lastSnapshotFilter = filter
	var out []platform.Snapshot
	for _, x := range s.f.snapshots {
		if platform.MatchLabels(x.Labels, filter.Labels) {
			out = append(out, x)
		}
	}
	return out, nil
}
func (s dataSourceFakeSnapshots) Delete(context.Context, string) error {
	return errDataSourceFakeReadOnly
}

type dataSourceFakeVolumes struct{ f *dataSourceFakePlatform }

func (v dataSourceFakeVolumes) Create(context.Context, platform.VolumeSpec) (*platform.Volume, error) {
	return nil, errDataSourceFakeReadOnly
}
func (v dataSourceFakeVolumes) Get(_ context.Context, id string) (*platform.Volume, error) {
	for _, x := range v.f.volumes {
		if x.ID == id {
			return &x, nil
		}
	}
	return nil, &platform.NotFoundError{Kind: "volume", ID: id}
}

// List matches names by prefix, as some platform APIs do, so the exact match
// has to happen in the data source.
func (v dataSourceFakeVolumes) List(_ context.Context, filter platform.VolumeFilter) ([]platform.Volume, error) {
	var out []platform.Volume
	for _, x := range v.f.volumes {
		if strings.HasPrefix(x.Name, filter.Name) {
			out = append(out, x)
		}
	}
	return out, nil
}
func (v dataSourceFakeVolumes) Update(context.Context, string, platform.VolumeUpdate) (*platform.Volume, error) {
	return nil, errDataSourceFakeReadOnly
}
func (v dataSourceFakeVolumes) Delete(context.Context, string) error {
	return errDataSourceFakeReadOnly
}

type dataSourceFakeTemplates struct{ f *dataSourceFakePlatform }

func (t dataSourceFakeTemplates) Create(context.Context, platform.TemplateSpec) (*platform.Template, error) {
	return nil, errDataSourceFakeReadOnly
}
func (t dataSourceFakeTemplates) Rebuild(context.Context, string, platform.TemplateSpec) (*platform.Template, error) {
	return nil, errDataSourceFakeReadOnly
}
func (t dataSourceFakeTemplates) Get(_ context.Context, id string) (*platform.Template, error) {
	for _, x := range t.f.templates {
		if x.ID == id {
			return &x, nil
		}
	}
	return nil, &platform.NotFoundError{Kind: "template", ID: id}
}
func (t dataSourceFakeTemplates) List(_ context.Context, filter platform.TemplateFilter) ([]platform.Template, error) {
	var out []platform.Template
	for _, x := range t.f.templates {
		if strings.HasPrefix(x.Name, filter.Name) {
			out = append(out, x)
		}
	}
	return out, nil
}
func (t dataSourceFakeTemplates) Delete(context.Context, string) error {
	return errDataSourceFakeReadOnly
}

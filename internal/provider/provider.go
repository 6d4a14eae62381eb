// Package provider implements the sbx Terraform provider: its configuration,
// resources and data sources. Resources speak only to the platform
// interfaces in internal/platform, never to a platform's API directly.
package provider

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

var _ provider.Provider = (*sbxProvider)(nil)

// sbxProvider is the sbx provider.
type sbxProvider struct {
	version string
	clock   retention.Clock // judges retention deadlines; tests inject a FakeClock
}

// New returns a constructor for the provider, as providerserver.Serve wants.
func New(version string) func() provider.Provider {
	return NewWithClock(version, retention.SystemClock{})
}

// NewWithClock is New with the clock retention deadlines are judged
// against, so tests move time instead of sleeping.
func NewWithClock(version string, clock retention.Clock) func() provider.Provider {
	return func() provider.Provider { return &sbxProvider{version: version, clock: clock} }
}

// providerModel is the provider block.
type providerModel struct {
	Docker    *dockerBlockModel `tfsdk:"docker"`
	Retention types.Object      `tfsdk:"retention"`
}

// dockerBlockModel is the docker {} block.
type dockerBlockModel struct {
	Host types.String `tfsdk:"host"`
}

func (p *sbxProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "sbx"
	resp.Version = p.version
}

func (p *sbxProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The sbx provider manages the infrastructure AI coding agents run in: " +
			"sandbox templates, persistent volumes, snapshots and the sandboxes themselves. " +
			"With no platform block it uses the local Docker engine, which needs no account.",
		Blocks: map[string]schema.Block{
			"docker": schema.SingleNestedBlock{
				MarkdownDescription: "Use a Docker engine as the platform. This is the default when no platform block is given.",
				Attributes: map[string]schema.Attribute{
					"host": schema.StringAttribute{
						MarkdownDescription: "Address of the Docker engine, e.g. `unix:///var/run/docker.sock`, " +
							"`tcp://build-host:2376` or `ssh://user@host`. Defaults to the `DOCKER_HOST` environment " +
							"variable, else the local socket. TLS settings come from `DOCKER_TLS_VERIFY` and `DOCKER_CERT_PATH`.",
						Optional: true,
					},
				},
			},
			"retention": retentionBlock(),
		},
	}
}

func (p *sbxProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	dockerCfg := docker.Config{Host: os.Getenv("DOCKER_HOST")}
	if cfg.Docker != nil {
		if cfg.Docker.Host.IsUnknown() {
			resp.Diagnostics.AddAttributeError(pathDockerHost, "Unknown Docker host",
				"docker.host depends on a value known only after apply; the provider needs it to plan. "+
					"Set it to a known value or use DOCKER_HOST.")
			return
		}
		if h := cfg.Docker.Host.ValueString(); h != "" {
			dockerCfg.Host = h
		}
	}

	plat, err := docker.New(ctx, dockerCfg)
	if err != nil {
		resp.Diagnostics.AddError("Cannot connect to Docker", err.Error()+
			"\n\nStart the Docker engine, or point the provider at one with docker { host = ... } or DOCKER_HOST.")
		return
	}
	ret, diags := retentionFromConfig(cfg.Retention, p.clock)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	data := &providerData{platform: plat, retention: ret}
	resp.ResourceData = data
	resp.DataSourceData = data
}

func (p *sbxProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewTemplateResource,
		NewVolumeResource,
		NewSandboxResource,
		NewSnapshotResource,
	}
}

func (p *sbxProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewSnapshotDataSource,
		NewSnapshotsDataSource,
		NewVolumeDataSource,
		NewTemplateDataSource,
		NewSandboxesDataSource,
	}
}

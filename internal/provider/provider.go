// Package provider implements the sbx Terraform provider: its configuration,
// resources and data sources. Resources speak only to the platform
// interfaces in internal/platform, never to a platform's API directly.
package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/docker"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
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
	Docker     *dockerBlockModel `tfsdk:"docker"`
	E2B        *e2bBlockModel    `tfsdk:"e2b"`
	Retention  types.Object      `tfsdk:"retention"`
	MaxRetries types.Int64       `tfsdk:"max_retries"`
	Owner      types.String      `tfsdk:"owner"`
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
							"variable, else the local socket. TLS settings come from `DOCKER_TLS_VERIFY` and `DOCKER_CERT_PATH`. " +
							"`ssh://` runs the local `ssh` client, which must log in without a prompt, and `docker system dial-stdio` " +
							"on that host, as the docker command line does. An engine that does not answer within " +
							strconv.Itoa(int(docker.AnswerTimeout/time.Second)) + " seconds (to connect, ping, inspect or list) is an " +
							"error naming it; builds, commits, starts, stops and other long calls are bounded by the resources' " +
							"`timeouts` instead.",
						Optional:   true,
						Validators: []validator.String{dockerHostValidator{}},
					},
				},
			},
			"e2b":       e2bBlock(),
			"retention": retentionBlock(),
		},
		Attributes: map[string]schema.Attribute{
			"owner": schema.StringAttribute{
				MarkdownDescription: "Marks every object this provider configuration creates as owned by this value " +
					"(the `" + platform.LabelOwner + "` label), e.g. the name of the team, repository or pipeline whose state " +
					"manages it. `terraform-provider-sbx orphans --owner <value>` then lists (and with `--delete` removes) " +
					"the objects of that owner that no state file holds, such as the boxes of an apply that was killed. " +
					"Optional; without it objects carry no owner and `orphans` considers every object the provider made. " +
					"1 to 63 letters, digits, `.`, `_` or `-`, starting with a letter or digit. Changing it marks new objects only.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.RegexMatches(ownerPattern, "must be 1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit")},
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: "How often a failed API request is retried (REST platforms): a 429 for any request, " +
					"a 5xx or lost connection only for requests safe to repeat. Default " + strconv.Itoa(rest.DefaultMaxRetries) + "; 0 disables retries. " +
					"The Docker engine is called directly and nothing retries there: setting it with Docker is an error.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(0, 20)},
			},
		},
	}
}

func (p *sbxProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	plat := p.newPlatform(ctx, cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ret, diags := retentionFromConfig(cfg.Retention, p.clock, plat)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	data := &providerData{platform: plat, retention: ret, owner: cfg.Owner.ValueString(), names: newNameRegistry()}
	resp.ResourceData = data
	resp.DataSourceData = data
}

// newPlatform builds the platform of the one platform block given; none means Docker.
func (p *sbxProvider) newPlatform(ctx context.Context, cfg providerModel, diags *diag.Diagnostics) platform.Platform {
	var blocks []string
	if cfg.Docker != nil {
		blocks = append(blocks, "docker")
	}
	if cfg.E2B != nil {
		blocks = append(blocks, "e2b")
	}
	if len(blocks) > 1 {
		diags.AddError("Several platform blocks",
			"The provider block has both "+strings.Join(blocks, " and ")+"; give exactly one platform block "+
				"(none means docker). Use provider aliases to manage several platforms.")
		return nil
	}
	maxRetries := rest.DefaultMaxRetries
	if !cfg.MaxRetries.IsNull() && !cfg.MaxRetries.IsUnknown() {
		maxRetries = int(cfg.MaxRetries.ValueInt64())
	}
	if cfg.E2B != nil {
		return newE2BPlatform(cfg.E2B, maxRetries, p.version, diags)
	}
	if !cfg.MaxRetries.IsNull() {
		// Docker speaks to a local or remote engine directly; nothing retries
		// there, so the setting would be silently ignored.
		diags.AddAttributeError(path.Root("max_retries"), "max_retries is not supported on docker",
			fmt.Sprintf("max_retries = %s applies to the REST platforms (e2b); the Docker engine is called directly "+
				"and its requests are not retried. Remove max_retries, or use it with a platform block that has a REST API.",
				cfg.MaxRetries.String()))
		return nil
	}
	return newDockerPlatform(ctx, cfg.Docker, diags)
}

// newDockerPlatform connects to the Docker engine of the docker block (or DOCKER_HOST).
func newDockerPlatform(ctx context.Context, block *dockerBlockModel, diags *diag.Diagnostics) platform.Platform {
	dockerCfg := docker.Config{Host: os.Getenv("DOCKER_HOST")}
	from := "DOCKER_HOST"
	if block != nil {
		if block.Host.IsUnknown() {
			diags.AddAttributeError(pathDockerHost, "Unknown Docker host",
				"docker.host depends on a value known only after apply; the provider needs it to plan. "+
					"Set it to a known value or use DOCKER_HOST.")
			return nil
		}
		if h := block.Host.ValueString(); h != "" {
			dockerCfg.Host, from = h, "docker.host"
		}
	}
	if dockerCfg.Host != "" {
		if err := docker.CheckHost(dockerCfg.Host); err != nil {
			summary, detail := "Unsupported Docker host", fmt.Sprintf("%s = %q %s.", from, docker.ShownHost(dockerCfg.Host), err)
			if from == "docker.host" {
				diags.AddAttributeError(pathDockerHost, summary, detail)
			} else {
				diags.AddError(summary, detail)
			}
			return nil
		}
	}
	plat, err := docker.New(ctx, dockerCfg)
	if err != nil {
		var noAnswer *docker.NoAnswerError
		hint := "Start the Docker engine, or point the provider at one with docker { host = ... } or DOCKER_HOST."
		if errors.As(err, &noAnswer) {
			hint = fmt.Sprintf("Check that a Docker engine listens at %s and is not hung (docker -H %s version), "+
				"or point the provider at another with docker { host = ... } or DOCKER_HOST.", noAnswer.Host, noAnswer.Host)
		}
		diags.AddError("Cannot connect to Docker", err.Error()+"\n\n"+hint)
		return nil
	}
	return plat
}

// dockerHostValidator rejects a docker.host the Docker client cannot
// connect to (a scheme it does not speak, a tcp:// without a port) at
// validate time, naming the value and what is supported; the client would
// otherwise dial it as TCP and fail with "Is the docker daemon running?".
type dockerHostValidator struct{}

var _ validator.String = dockerHostValidator{}

func (dockerHostValidator) Description(_ context.Context) string {
	return "must be an engine address the Docker client supports: " + docker.HostSchemes()
}

func (v dockerHostValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (dockerHostValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() == "" {
		return
	}
	if err := docker.CheckHost(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Unsupported Docker host",
			fmt.Sprintf("docker.host = %q %s.", docker.ShownHost(req.ConfigValue.ValueString()), err))
	}
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

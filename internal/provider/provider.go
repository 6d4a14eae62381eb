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
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

var _ provider.Provider = (*sbxProvider)(nil)

// sbxProvider is the sbx provider. Its zero value (with a version) is the
// provider with the registered platforms and the system clock.
type sbxProvider struct {
	version string
	clock   clock.Clock // judges retention deadlines; tests inject a clock.Fake
	// platforms are the platforms offered, one block each (nil: platforms.All()).
	platforms []platform.Definition
	// hooks are handed to every platform's Configure (tests).
	hooks platform.Hooks

	// mu guards current, the platform of the last Configure: when
	// Configure runs again on this instance, the new platform replaces it
	// and it is closed.
	mu      sync.Mutex
	current platform.Platform
}

// Options are what a provider is constructed with besides its version.
// Zero fields mean the real behaviour.
type Options struct {
	// Clock judges retention deadlines (nil: the system clock), so tests
	// move time instead of sleeping.
	Clock clock.Clock
	// Platforms are the platforms the provider offers (nil: platforms.All()).
	Platforms []platform.Definition
	// Hooks reach into the platforms' clients (see platform.Hooks); each
	// provider carries its own, so tests run in parallel.
	Hooks platform.Hooks
}

// New returns a constructor for the provider, as providerserver.Serve wants.
func New(version string) func() provider.Provider {
	return NewWithOptions(version, Options{})
}

// NewWithClock is New with the clock retention deadlines are judged
// against, so tests move time instead of sleeping.
func NewWithClock(version string, clk clock.Clock) func() provider.Provider {
	return NewWithOptions(version, Options{Clock: clk})
}

// NewWithOptions is New with opts.
func NewWithOptions(version string, opts Options) func() provider.Provider {
	clk := opts.Clock
	if clk == nil {
		clk = clock.System{}
	}
	return func() provider.Provider {
		return &sbxProvider{version: version, clock: clk, platforms: opts.Platforms, hooks: opts.Hooks}
	}
}

// definitions are the platforms the provider offers.
func (p *sbxProvider) definitions() []platform.Definition {
	if p.platforms != nil {
		return p.platforms
	}
	return platforms.All()
}

// defaultDefinition is the platform used when the provider block names none.
func defaultDefinition(defs []platform.Definition) (platform.Definition, bool) {
	for _, def := range defs {
		if def.Default {
			return def, true
		}
	}
	return platform.Definition{}, false
}

func (p *sbxProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "sbx"
	resp.Version = p.version
}

func (p *sbxProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	defs := p.definitions()
	blocks := map[string]schema.Block{"retention": retentionBlock(defs)}
	var names, retrying, direct []string
	for _, def := range defs {
		blocks[def.Name] = platformBlock(def)
		names = append(names, "`"+def.Name+"`")
		if def.Retries {
			retrying = append(retrying, def.Name)
		} else {
			direct = append(direct, def.Title)
		}
	}
	description := "The sbx provider manages the infrastructure AI coding agents run in: " +
		"sandbox templates, persistent volumes, snapshots and the sandboxes themselves. " +
		"Give one platform block: " + joinOr(names) + "."
	if def, ok := defaultDefinition(defs); ok {
		description += " With none it uses " + def.Title + " with its defaults (`" + def.Name + " {}`), which needs no account."
	}
	retries := "How often a failed API request is retried (REST platforms"
	if len(retrying) > 0 {
		retries += ": " + strings.Join(retrying, ", ")
	}
	retries += "): a 429 for any request, a 5xx or lost connection only for requests safe to repeat. Default " +
		strconv.Itoa(rest.DefaultMaxRetries) + "; 0 disables retries."
	if len(direct) > 0 {
		retries += " " + joinAnd(direct) + " is called directly and nothing retries there: setting it with " +
			joinOr(direct) + " is an error."
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: description,
		Blocks:              blocks,
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
				CustomType:          wholeNumber,
				MarkdownDescription: retries,
				Optional:            true,
				Validators:          []validator.Int64{int64validator.Between(0, 20)},
			},
		},
	}
}

// platformBlock is the provider block of one platform: a string attribute
// per setting.
func platformBlock(def platform.Definition) schema.SingleNestedBlock {
	attrs := make(map[string]schema.Attribute, len(def.Settings))
	for _, s := range def.Settings {
		description := s.Description
		if d := s.DefaultsSentence(); d != "" {
			description += " " + d
		}
		var validators []validator.String
		if len(s.OneOf) > 0 {
			validators = append(validators, stringvalidator.OneOf(s.OneOf...))
		}
		if s.Validate != nil {
			validators = append(validators, settingValidator{def: def, setting: s})
		}
		attrs[s.Name] = schema.StringAttribute{
			MarkdownDescription: description,
			Optional:            true,
			Sensitive:           s.Sensitive,
			Validators:          validators,
		}
	}
	return schema.SingleNestedBlock{MarkdownDescription: def.Description, Attributes: attrs}
}

// settingValidator runs a setting's Validate at validate time, so a value
// the platform cannot take fails `terraform validate` naming the value.
type settingValidator struct {
	def     platform.Definition
	setting platform.Setting
}

var _ validator.String = settingValidator{}

func (v settingValidator) Description(_ context.Context) string {
	return "must be a " + v.setting.Prose() + " " + v.def.Title + " supports"
}

func (v settingValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v settingValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() == "" {
		return
	}
	if err := v.setting.Validate(req.ConfigValue.ValueString()); err != nil {
		e := v.def.Invalid(v.setting, v.def.Name+"."+v.setting.Name, err)
		resp.Diagnostics.AddAttributeError(req.Path, e.Summary, e.Detail)
	}
}

func (p *sbxProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var owner types.String
	var maxRetries types.Int64
	var retentionCfg types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("owner"), &owner)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("max_retries"), &maxRetries)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("retention"), &retentionCfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	plat, def, cfg := p.newPlatform(ctx, req.Config, maxRetries, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	// An account tier (a setting called tier) may change the platform's
	// retention rows: def.TierOverrides.
	ret, diags := retentionFromConfig(retentionCfg, p.clock, def, cfg.Settings["tier"])
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		_ = plat.Close() // never handed out; a failed close changes nothing
		return
	}
	p.replacePlatform(plat)
	data := &providerData{platform: plat, retention: ret, owner: owner.ValueString(), names: newNameRegistry(), boxes: newBoxStates()}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData = data
	resp.ActionData = data
}

// replacePlatform makes plat the provider's platform and closes the one a
// previous Configure of this instance built: nothing uses it any more.
func (p *sbxProvider) replacePlatform(plat platform.Platform) {
	p.mu.Lock()
	prev := p.current
	p.current = plat
	p.mu.Unlock()
	if prev != nil && prev != plat {
		_ = prev.Close() // its connections go either way; nothing to tell the user
	}
}

// newPlatform builds the platform of the one platform block given (none
// means the default platform with an empty block), and returns it with its
// definition and the Config it was built from.
func (p *sbxProvider) newPlatform(ctx context.Context, config tfsdk.Config, maxRetries types.Int64, diags *diag.Diagnostics) (
	platform.Platform, platform.Definition, platform.Config,
) {
	defs := p.definitions()
	var given []string
	var def platform.Definition
	var block types.Object
	for _, d := range defs {
		var obj types.Object
		diags.Append(config.GetAttribute(ctx, path.Root(d.Name), &obj)...)
		if obj.IsNull() {
			continue
		}
		given = append(given, d.Name)
		def, block = d, obj
	}
	if diags.HasError() {
		return nil, def, platform.Config{}
	}
	if len(given) > 1 {
		none := ""
		if d, ok := defaultDefinition(defs); ok {
			none = " (none means " + d.Name + ")"
		}
		has := joinAnd(given)
		if len(given) == 2 {
			has = "both " + has
		}
		diags.AddError("Several platform blocks",
			"The provider block has "+has+"; give exactly one platform block"+none+
				". Use provider aliases to manage several platforms.")
		return nil, def, platform.Config{}
	}
	if len(given) == 0 {
		d, ok := defaultDefinition(defs)
		if !ok {
			diags.AddError("No platform block", "The provider block names no platform; give one of "+joinOr(blockNames(defs))+".")
			return nil, def, platform.Config{}
		}
		def = d
	}
	values := p.blockValues(def, block, diags)
	if diags.HasError() {
		return nil, def, platform.Config{}
	}
	if !def.Retries && !maxRetries.IsNull() {
		// The platform is not called through internal/rest; nothing retries
		// there, so the setting would be silently ignored.
		var rests []string
		for _, d := range defs {
			if d.Retries {
				rests = append(rests, d.Name)
			}
		}
		how := def.RetriesWhy
		if how == "" {
			how = def.Title + " is called directly and its requests are not retried"
		}
		diags.AddAttributeError(path.Root("max_retries"), "max_retries is not supported on "+def.Name,
			fmt.Sprintf("max_retries = %s applies to the REST platforms (%s); %s. Remove max_retries, or use it "+
				"with a platform block that has a REST API.",
				maxRetries.String(), strings.Join(rests, ", "), how))
		return nil, def, platform.Config{}
	}

	cfg, err := def.Resolve(values, os.Getenv)
	if err != nil {
		addConfigureError(def, cfg, err, diags)
		return nil, def, cfg
	}
	cfg.MaxRetries = rest.DefaultMaxRetries
	if !maxRetries.IsNull() && !maxRetries.IsUnknown() {
		cfg.MaxRetries = int(maxRetries.ValueInt64())
	}
	cfg.UserAgent = "terraform-provider-sbx/" + p.version
	cfg.Hooks = p.hooks
	plat, err := def.Configure(ctx, cfg)
	if err != nil {
		addConfigureError(def, cfg, err, diags)
		return nil, def, cfg
	}
	return plat, def, cfg
}

// blockValues reads the settings of def's block (null: no block, all
// settings left out). A value known only after apply is an error: the
// provider needs it to plan.
func (p *sbxProvider) blockValues(def platform.Definition, block types.Object, diags *diag.Diagnostics) map[string]string {
	values := map[string]string{}
	if block.IsUnknown() {
		diags.AddAttributeError(path.Root(def.Name), "Unknown "+def.Title+" settings",
			"The "+def.Name+" block depends on values known only after apply; the provider needs them to plan. Set them to known values.")
		return nil
	}
	if block.IsNull() {
		return values
	}
	attrs := block.Attributes()
	for _, s := range def.Settings {
		v, ok := attrs[s.Name].(types.String)
		if !ok || v.IsNull() {
			continue
		}
		if v.IsUnknown() {
			orEnv := ""
			if len(s.Env) > 0 {
				orEnv = " or use " + strings.Join(s.Env, " or ")
			}
			diags.AddAttributeError(path.Root(def.Name).AtName(s.Name), "Unknown "+def.Title+" "+s.Prose(),
				def.Name+"."+s.Name+" depends on a value known only after apply; the provider needs it to plan. "+
					"Set it to a known value"+orEnv+".")
			continue
		}
		values[s.Name] = v.ValueString()
	}
	return values
}

// addConfigureError reports an error of Resolve or Configure: a
// SettingError on its attribute when the value came from the block (or was
// missing), as a general error when it came from the environment; a
// ConfigureError under its summary; anything else as an invalid
// configuration.
func addConfigureError(def platform.Definition, cfg platform.Config, err error, diags *diag.Diagnostics) {
	var settingErr *platform.SettingError
	var configureErr *platform.ConfigureError
	switch {
	case errors.As(err, &settingErr):
		_, known := def.Setting(settingErr.Setting)
		from, fromSomewhere := cfg.From[settingErr.Setting]
		if known && (!fromSomewhere || from == def.Name+"."+settingErr.Setting) {
			diags.AddAttributeError(path.Root(def.Name).AtName(settingErr.Setting), settingErr.Summary, settingErr.Detail)
		} else {
			diags.AddError(settingErr.Summary, settingErr.Detail)
		}
	case errors.As(err, &configureErr):
		diags.AddError(configureErr.Summary, configureErr.Err.Error())
	default:
		diags.AddError("Invalid "+def.Title+" configuration", err.Error())
	}
}

// blockNames are the definitions' block names, quoted as code.
func blockNames(defs []platform.Definition) []string {
	names := make([]string, 0, len(defs))
	for _, d := range defs {
		names = append(names, "`"+d.Name+"`")
	}
	return names
}

// joinAnd joins words as prose: "a", "a and b", "a, b and c".
func joinAnd(words []string) string { return joinProse(words, " and ") }

// joinOr joins words as prose: "a", "a or b", "a, b or c".
func joinOr(words []string) string { return joinProse(words, " or ") }

func joinProse(words []string, last string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + last + words[len(words)-1]
}

// Resources are built for the platforms the provider offers, whose tables
// document their schemas.
func (p *sbxProvider) Resources(_ context.Context) []func() resource.Resource {
	defs := p.definitions()
	return []func() resource.Resource{
		func() resource.Resource { return newTemplateResource(defs) },
		func() resource.Resource { return newVolumeResource(defs) },
		func() resource.Resource { return newSandboxResource(defs) },
		func() resource.Resource { return newSnapshotResource(defs) },
	}
}

// DataSources are built for the platforms the provider offers, as Resources.
func (p *sbxProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	defs := p.definitions()
	return []func() datasource.DataSource{
		func() datasource.DataSource { return newSnapshotDataSource(defs) },
		func() datasource.DataSource { return newSnapshotsDataSource(defs) },
		func() datasource.DataSource { return newVolumeDataSource(defs) },
		NewTemplateDataSource,
		func() datasource.DataSource { return newSandboxesDataSource(defs) },
	}
}

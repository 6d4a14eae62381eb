package provider

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// providerTestNew is the provider NewWithOptions builds.
func providerTestNew(t *testing.T, version string, opts Options) *sbxProvider {
	t.Helper()
	p, ok := NewWithOptions(version, opts)().(*sbxProvider)
	if !ok {
		t.Fatal("NewWithOptions built no *sbxProvider")
	}
	return p
}

// providerTestConfigure runs Configure on p with the given platform blocks
// (a nil block map: no block; empty: an empty block) and top-level
// attributes; everything else is null.
func providerTestConfigure(t *testing.T, p *sbxProvider, blocks map[string]map[string]tftypes.Value, attrs map[string]tftypes.Value) *provider.ConfigureResponse {
	t.Helper()
	ctx := context.Background()
	var sresp provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &sresp)
	typ, ok := sresp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatalf("the provider schema is not an object")
	}
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		block, isBlock := blocks[name]
		switch {
		case isBlock && block != nil:
			bt, ok := at.(tftypes.Object)
			if !ok {
				t.Fatalf("%s is no block", name)
			}
			bv := map[string]tftypes.Value{}
			for an, aty := range bt.AttributeTypes {
				if v, ok := block[an]; ok {
					bv[an] = v
				} else {
					bv[an] = tftypes.NewValue(aty, nil)
				}
			}
			vals[name] = tftypes.NewValue(bt, bv)
		case attrs[name].Type() != nil:
			vals[name] = attrs[name]
		default:
			vals[name] = tftypes.NewValue(at, nil)
		}
	}
	req := provider.ConfigureRequest{Config: tfsdk.Config{Schema: sresp.Schema, Raw: tftypes.NewValue(typ, vals)}}
	var resp provider.ConfigureResponse
	p.Configure(ctx, req, &resp)
	return &resp
}

// providerTestPlatform is the platform a successful Configure handed out;
// it is closed when the test ends.
func providerTestPlatform(t *testing.T, resp *provider.ConfigureResponse) platform.Platform {
	t.Helper()
	if resp.Diagnostics.HasError() {
		t.Fatalf("Configure failed: %v", resp.Diagnostics)
	}
	data, ok := resp.ResourceData.(*providerData)
	if !ok || data.platform == nil || resp.DataSourceData != resp.ResourceData {
		t.Fatalf("Configure handed out %#v", resp.ResourceData)
	}
	t.Cleanup(func() { _ = data.platform.Close() })
	return data.platform
}

// providerTestWantError checks that diags hold exactly one error, with
// summary, on the attribute at attrPath ("": a general error), its detail
// holding detail.
func providerTestWantError(t *testing.T, diags diag.Diagnostics, summary, attrPath, detail string) {
	t.Helper()
	errs := diags.Errors()
	if len(errs) != 1 || errs[0].Summary() != summary {
		t.Fatalf("diagnostics = %v, want one error %q", diags, summary)
	}
	withPath, hasPath := errs[0].(diag.DiagnosticWithPath)
	switch {
	case attrPath == "" && hasPath:
		t.Errorf("error %q is on %s, want a general error", summary, withPath.Path())
	case attrPath != "" && (!hasPath || withPath.Path().String() != attrPath):
		t.Errorf("error %q is not on %s: %v", summary, attrPath, errs[0])
	}
	if !strings.Contains(errs[0].Detail(), detail) {
		t.Errorf("detail = %q, want it to hold %q", errs[0].Detail(), detail)
	}
}

// testPlatform is a platform a test definition builds: it only says its
// name and counts its closes.
type testPlatform struct {
	platform.Platform // nil: any other call is a bug in the test
	name              string
	mu                sync.Mutex
	closed            int
}

func (p *testPlatform) Name() string                        { return p.name }
func (p *testPlatform) Capabilities() platform.Capabilities { return platform.Capabilities{} }
func (p *testPlatform) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed++
	return nil
}

func (p *testPlatform) closes() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// testDefinitions are two platforms for the provider under test: "alpha"
// (the default, no retries) and "beta" (a required token, retries). Each
// Configure records its Config in got and returns a new testPlatform.
type testDefinitions struct {
	mu    sync.Mutex
	got   []platform.Config
	built []*testPlatform
	fail  error // returned by beta's Configure when set
}

func (d *testDefinitions) configure(name string) func(context.Context, platform.Config) (platform.Platform, error) {
	return func(_ context.Context, cfg platform.Config) (platform.Platform, error) {
		d.mu.Lock()
		defer d.mu.Unlock()
		d.got = append(d.got, cfg)
		if name == "beta" && d.fail != nil {
			return nil, d.fail
		}
		p := &testPlatform{name: name}
		d.built = append(d.built, p)
		return p, nil
	}
}

func (d *testDefinitions) list() []platform.Definition {
	return []platform.Definition{
		{
			Name: "alpha", Title: "Alpha", Description: "Alpha.", Default: true,
			Settings: []platform.Setting{{
				Name: "host", Description: "Where.", Env: []string{"SBX_TEST_ALPHA_HOST"}, Fallback: "here",
				Validate: func(v string) error {
					if strings.HasPrefix(v, "bad") {
						return errors.New(`"bad..." is bad`)
					}
					return nil
				},
			}},
			Configure: d.configure("alpha"),
		},
		{
			Name: "beta", Title: "Beta", Description: "Beta.", Retries: true,
			Settings: []platform.Setting{
				{Name: "token", Title: "token", Description: "Secret.", Env: []string{"SBX_TEST_BETA_TOKEN", "SBX_TEST_BETA_TOKEN2"},
					Required: true, Sensitive: true, Hint: "Ask Beta."},
				{Name: "mode", Description: "How.", OneOf: []string{"fast", "slow"}},
			},
			Configure: d.configure("beta"),
		},
	}
}

func (d *testDefinitions) last(t *testing.T) platform.Config {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.got) == 0 {
		t.Fatal("no Configure ran")
	}
	return d.got[len(d.got)-1]
}

// TestProviderSchemaFromDefinitions: one block per definition, an
// attribute per setting, with its sensitivity and where its default comes
// from; max_retries and the description name the platforms.
func TestProviderSchemaFromDefinitions(t *testing.T) {
	defs := &testDefinitions{}
	var resp provider.SchemaResponse
	NewWithOptions("test", Options{Platforms: defs.list()})().Schema(context.Background(), provider.SchemaRequest{}, &resp)
	if len(resp.Schema.Blocks) != 3 { // alpha, beta, retention
		t.Errorf("blocks = %v, want alpha, beta and retention", resp.Schema.Blocks)
	}
	beta, ok := resp.Schema.Blocks["beta"].(schema.SingleNestedBlock)
	if !ok || beta.MarkdownDescription != "Beta." {
		t.Fatalf("beta block = %#v", resp.Schema.Blocks["beta"])
	}
	token, _ := beta.Attributes["token"].(schema.StringAttribute)
	if !token.Sensitive || !token.Optional || token.Required ||
		token.MarkdownDescription != "Secret. Defaults to the first set of the `SBX_TEST_BETA_TOKEN`, `SBX_TEST_BETA_TOKEN2` environment variables." {
		t.Errorf("beta.token = %+v", token)
	}
	if mode, _ := beta.Attributes["mode"].(schema.StringAttribute); mode.MarkdownDescription != "How." || len(mode.Validators) != 1 {
		t.Errorf("beta.mode = %+v, want its description and a OneOf validator", mode)
	}
	alpha, _ := resp.Schema.Blocks["alpha"].(schema.SingleNestedBlock)
	if host, _ := alpha.Attributes["host"].(schema.StringAttribute); host.MarkdownDescription != "Where. Defaults to the `SBX_TEST_ALPHA_HOST` environment variable, else here." {
		t.Errorf("alpha.host description = %q", host.MarkdownDescription)
	}
	if d := resp.Schema.Attributes["max_retries"].GetMarkdownDescription(); !strings.Contains(d, "(REST platforms: beta)") ||
		!strings.Contains(d, "Alpha is called directly and nothing retries there: setting it with Alpha is an error.") {
		t.Errorf("max_retries description = %q", d)
	}
	if d := resp.Schema.MarkdownDescription; !strings.Contains(d, "Give one platform block: `alpha` or `beta`. With none it uses Alpha") {
		t.Errorf("provider description = %q", d)
	}
}

// TestProviderSettingValidator: a setting's Validate runs at validate
// time on the attribute, naming the block, the setting and the value.
func TestProviderSettingValidator(t *testing.T) {
	defs := (&testDefinitions{}).list()
	v := settingValidator{def: defs[0], setting: defs[0].Settings[0]}
	validate := func(value types.String) diag.Diagnostics {
		var resp validator.StringResponse
		v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("alpha").AtName("host"), ConfigValue: value}, &resp)
		return resp.Diagnostics
	}
	providerTestWantError(t, validate(types.StringValue("bad-host")), "Unsupported Alpha host", "alpha.host", `alpha.host = "bad..." is bad.`)
	for _, ok := range []types.String{types.StringValue("good"), types.StringValue(""), types.StringNull(), types.StringUnknown()} {
		if diags := validate(ok); diags.HasError() {
			t.Errorf("%s refused: %v", ok, diags)
		}
	}
}

// TestProviderConfigureFromDefinitions: the provider reads whichever
// block is given (none: the default), applies the environment, refuses
// what is wrong naming the block and setting, and hands Configure the
// settings, their sources, max_retries, the user agent and its hooks.
func TestProviderConfigureFromDefinitions(t *testing.T) {
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	num := func(n int64) tftypes.Value { return tftypes.NewValue(tftypes.Number, n) }
	slept := 0
	hooks := platform.Hooks{Sleep: func(context.Context, time.Duration) error { slept++; return nil }, PollInterval: time.Second}
	newProvider := func(d *testDefinitions) *sbxProvider {
		return providerTestNew(t, "1.2.3", Options{Platforms: d.list(), Hooks: hooks})
	}

	t.Run("no block: the default, from its environment", func(t *testing.T) {
		t.Setenv("SBX_TEST_ALPHA_HOST", "there")
		d := &testDefinitions{}
		plat := providerTestPlatform(t, providerTestConfigure(t, newProvider(d), nil, nil))
		cfg := d.last(t)
		if plat.Name() != "alpha" || cfg.Settings["host"] != "there" || cfg.From["host"] != "SBX_TEST_ALPHA_HOST" {
			t.Errorf("platform %s, config %+v", plat.Name(), cfg)
		}
		if cfg.UserAgent != "terraform-provider-sbx/1.2.3" || cfg.Hooks.PollInterval != time.Second || cfg.Hooks.Sleep == nil {
			t.Errorf("config %+v lacks the user agent or the hooks", cfg)
		}
		if err := cfg.Hooks.Sleep(context.Background(), time.Hour); err != nil || slept != 1 {
			t.Errorf("the hooks are not the provider's")
		}
	})
	t.Run("the block wins over the environment", func(t *testing.T) {
		t.Setenv("SBX_TEST_BETA_TOKEN", "")
		t.Setenv("SBX_TEST_BETA_TOKEN2", "from-env")
		d := &testDefinitions{}
		plat := providerTestPlatform(t, providerTestConfigure(t, newProvider(d),
			map[string]map[string]tftypes.Value{"beta": {"mode": str("fast")}}, map[string]tftypes.Value{"max_retries": num(7)}))
		cfg := d.last(t)
		if plat.Name() != "beta" || cfg.Settings["token"] != "from-env" || cfg.From["token"] != "SBX_TEST_BETA_TOKEN2" ||
			cfg.Settings["mode"] != "fast" || cfg.From["mode"] != "beta.mode" || cfg.MaxRetries != 7 {
			t.Errorf("platform %s, config %+v", plat.Name(), cfg)
		}
		d = &testDefinitions{}
		providerTestPlatform(t, providerTestConfigure(t, newProvider(d),
			map[string]map[string]tftypes.Value{"beta": {"token": str("in-block")}}, nil))
		if cfg := d.last(t); cfg.Settings["token"] != "in-block" || cfg.From["token"] != "beta.token" || cfg.MaxRetries != 4 {
			t.Errorf("config %+v, want the block's token and the default max_retries", cfg)
		}
	})

	t.Setenv("SBX_TEST_BETA_TOKEN", "")
	t.Setenv("SBX_TEST_BETA_TOKEN2", "")
	errCases := []struct {
		name                   string
		env                    map[string]string
		blocks                 map[string]map[string]tftypes.Value
		attrs                  map[string]tftypes.Value
		fail                   error
		summary, path, details string
	}{
		{name: "several blocks", blocks: map[string]map[string]tftypes.Value{"alpha": {}, "beta": {}},
			summary: "Several platform blocks",
			details: "The provider block has both alpha and beta; give exactly one platform block (none means alpha)."},
		{name: "max_retries without retries", attrs: map[string]tftypes.Value{"max_retries": num(3)},
			summary: "max_retries is not supported on alpha", path: "max_retries",
			details: "max_retries = 3 applies to the REST platforms (beta); Alpha is called directly"},
		{name: "unknown setting", blocks: map[string]map[string]tftypes.Value{"alpha": {"host": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}},
			summary: "Unknown Alpha host", path: "alpha.host",
			details: "alpha.host depends on a value known only after apply; the provider needs it to plan. Set it to a known value or use SBX_TEST_ALPHA_HOST."},
		{name: "missing required", blocks: map[string]map[string]tftypes.Value{"beta": {}},
			summary: "No Beta token", path: "beta.token",
			details: "Set beta { token = ... } or the SBX_TEST_BETA_TOKEN or SBX_TEST_BETA_TOKEN2 environment variable. Ask Beta."},
		{name: "invalid in the block", blocks: map[string]map[string]tftypes.Value{"alpha": {"host": str("bad-1")}},
			summary: "Unsupported Alpha host", path: "alpha.host", details: `alpha.host = "bad..." is bad.`},
		{name: "invalid in the environment", env: map[string]string{"SBX_TEST_ALPHA_HOST": "bad-2"},
			summary: "Unsupported Alpha host", details: `SBX_TEST_ALPHA_HOST = "bad..." is bad.`},
		{name: "setting error from Configure", blocks: map[string]map[string]tftypes.Value{"beta": {"token": str("t")}},
			fail:    &platform.SettingError{Setting: "token", Summary: "Token refused", Detail: "beta.token is revoked."},
			summary: "Token refused", path: "beta.token", details: "beta.token is revoked."},
		{name: "setting error from Configure, from the environment", env: map[string]string{"SBX_TEST_BETA_TOKEN": "t"},
			blocks:  map[string]map[string]tftypes.Value{"beta": {}},
			fail:    &platform.SettingError{Setting: "token", Summary: "Token refused", Detail: "SBX_TEST_BETA_TOKEN is revoked."},
			summary: "Token refused", details: "SBX_TEST_BETA_TOKEN is revoked."},
		{name: "configure error", blocks: map[string]map[string]tftypes.Value{"beta": {"token": str("t")}},
			fail:    &platform.ConfigureError{Summary: "Cannot reach Beta", Err: errors.New("no answer\n\nStart Beta.")},
			summary: "Cannot reach Beta", details: "no answer\n\nStart Beta."},
		{name: "any other error", blocks: map[string]map[string]tftypes.Value{"beta": {"token": str("t")}},
			fail: errors.New("beta: broken"), summary: "Invalid Beta configuration", details: "beta: broken"},
	}
	for _, c := range errCases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			d := &testDefinitions{fail: c.fail}
			resp := providerTestConfigure(t, newProvider(d), c.blocks, c.attrs)
			providerTestWantError(t, resp.Diagnostics, c.summary, c.path, c.details)
			if resp.ResourceData != nil {
				t.Errorf("a failed Configure handed out %#v", resp.ResourceData)
			}
		})
	}
}

// TestProviderConfigureClosesThePreviousPlatform: configuring the same
// provider instance again closes the platform the first Configure built,
// and only that one.
func TestProviderConfigureClosesThePreviousPlatform(t *testing.T) {
	d := &testDefinitions{}
	p := providerTestNew(t, "test", Options{Platforms: d.list()})
	providerTestPlatform(t, providerTestConfigure(t, p, nil, nil))
	providerTestPlatform(t, providerTestConfigure(t, p, nil, nil))
	if len(d.built) != 2 {
		t.Fatalf("built %d platforms, want 2", len(d.built))
	}
	if d.built[0].closes() != 1 || d.built[1].closes() != 0 {
		t.Errorf("closes: first %d, second %d; want 1 and 0", d.built[0].closes(), d.built[1].closes())
	}
	// A Configure that fails keeps the platform of the last one that worked.
	providerTestConfigure(t, p, nil, map[string]tftypes.Value{"max_retries": tftypes.NewValue(tftypes.Number, 3)})
	if d.built[1].closes() != 0 {
		t.Errorf("a failed Configure closed the working platform")
	}
	// Another provider instance has its own platform.
	other := providerTestNew(t, "test", Options{Platforms: d.list()})
	providerTestPlatform(t, providerTestConfigure(t, other, nil, nil))
	if d.built[1].closes() != 0 {
		t.Errorf("configuring another instance closed this one's platform")
	}
}

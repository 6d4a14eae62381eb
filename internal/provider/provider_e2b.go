package provider

import (
	"context"
	"net/http"
	"os"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
)

// e2bBlockModel is the e2b {} block.
type e2bBlockModel struct {
	APIKey types.String `tfsdk:"api_key"`
	APIURL types.String `tfsdk:"api_url"`
	Tier   types.String `tfsdk:"tier"`
}

// e2bTestHooks lets tests in this package reach into the E2B client the
// provider builds: record the waits between retries instead of sleeping,
// and poll builds without waiting. Nil fields mean the real behaviour.
var e2bTestHooks struct {
	Sleep        func(ctx context.Context, d time.Duration) error
	PollSleep    func(ctx context.Context, d time.Duration) error
	HTTPClient   *http.Client
	PollInterval time.Duration
}

func e2bBlock() schema.Block {
	return schema.SingleNestedBlock{
		MarkdownDescription: "Use [E2B](https://e2b.dev) as the platform: templates are E2B templates built from the " +
			"Dockerfile's steps, sandboxes are E2B sandboxes, volumes are E2B volumes (a private beta), snapshots are " +
			"E2B sandbox snapshots. See the provider guide for what E2B supports and rejects.",
		Attributes: map[string]schema.Attribute{
			"api_key": schema.StringAttribute{
				MarkdownDescription: "E2B API key, sent as `X-API-Key`. Defaults to the `E2B_API_KEY` environment variable. Never logged.",
				Optional:            true,
				Sensitive:           true,
			},
			"api_url": schema.StringAttribute{
				MarkdownDescription: "E2B API root. Defaults to `" + e2b.DefaultAPIURL + "`.",
				Optional:            true,
			},
			"tier": schema.StringAttribute{
				MarkdownDescription: "Your E2B plan, `base` (default) or `pro`. It sets the longest `timeout` a sandbox may " +
					"have: 1 hour on base, 24 hours on pro; a longer one is a plan-time error.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.OneOf(e2b.TierBase, e2b.TierPro)},
			},
		},
	}
}

// newE2BPlatform builds the E2B platform from its block; it makes no request.
func newE2BPlatform(cfg *e2bBlockModel, maxRetries int, version string, diags *diag.Diagnostics) platform.Platform {
	base := path.Root("e2b")
	for name, v := range map[string]types.String{"api_key": cfg.APIKey, "api_url": cfg.APIURL, "tier": cfg.Tier} {
		if v.IsUnknown() {
			diags.AddAttributeError(base.AtName(name), "Unknown E2B setting",
				"e2b."+name+" depends on a value known only after apply; the provider needs it to plan. Set it to a known value.")
		}
	}
	if diags.HasError() {
		return nil
	}
	key := cfg.APIKey.ValueString()
	if key == "" {
		key = os.Getenv("E2B_API_KEY")
	}
	if key == "" {
		diags.AddAttributeError(base.AtName("api_key"), "No E2B API key",
			"Set e2b { api_key = ... } or the E2B_API_KEY environment variable. Create a key in the E2B dashboard.")
		return nil
	}
	plat, err := e2b.New(e2b.Config{
		APIKey: key, APIURL: cfg.APIURL.ValueString(), Tier: cfg.Tier.ValueString(),
		MaxRetries: maxRetries, UserAgent: "terraform-provider-sbx/" + version + " (+e2b)",
		Sleep: e2bTestHooks.Sleep, PollSleep: e2bTestHooks.PollSleep,
		HTTPClient: e2bTestHooks.HTTPClient, PollInterval: e2bTestHooks.PollInterval,
	})
	if err != nil {
		diags.AddAttributeError(base, "Invalid E2B configuration", err.Error())
		return nil
	}
	return plat
}

package e2bacc_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// configureE2BWrapped is a pattern matching text as terraform prints it:
// literally, except that it may wrap the text at any space.
func configureE2BWrapped(text string) string {
	return strings.ReplaceAll(regexp.QuoteMeta(text), " ", `\s+`)
}

// configureE2BError is the error terraform prints for a provider block the
// provider refuses: the summary, then where it points (the line of the
// attribute at fault, or of its block when the attribute is left out, or the
// provider block's first line for a general error), then the detail. The
// provider's address is on the CLI's registry host: registry.terraform.io,
// registry.opentofu.org on OpenTofu.
func configureE2BError(summary, line, detail string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)Error: ` + configureE2BWrapped(summary) +
		`\s+with provider\["[a-z.]+/hashicorp/sbx"\],\s+on \S+ line \d+, in provider "sbx":\s+\d+:\s+` +
		configureE2BWrapped(line) + `\s.*` + configureE2BWrapped(detail))
}

// TestProviderConfigureE2B configures the provider with e2b blocks through
// the terraform CLI: the key from the block or E2B_API_KEY, the API root
// from the block or E2B_API_URL, the tier (base when none is given), and the
// errors, each pointing at the attribute at fault, none holding the key.
// The platform configured is E2B: its requests reach the E2B fake with the
// key (a wrong key is refused there), and its tier decides the longest
// timeout a plan accepts. (TestDefinitionResolve in package e2b checks the
// same settings below the provider.)
func TestProviderConfigureE2B(t *testing.T) {
	acctest.RequireTerraform(t)
	// A key whose characters all differ, so acctest.Without can prove that
	// no error shows it.
	key := acctest.Secret()
	fake := e2bAccServe(t, e2bfake.Options{APIKey: key})
	type block map[string]string // attribute = HCL expression
	tests := []struct {
		name    string
		env     map[string]string
		block   block
		tier    string // success: the tier the platform has
		wantErr *regexp.Regexp
	}{
		{name: "key from env, base tier by default", env: map[string]string{"E2B_API_KEY": key},
			block: block{"api_url": fmt.Sprintf("%q", fake.URL())}, tier: "base"},
		{name: "key in block, pro", block: block{"api_key": fmt.Sprintf("%q", key), "api_url": fmt.Sprintf("%q", fake.URL()), "tier": `"pro"`},
			tier: "pro"},
		{name: "url from env", env: map[string]string{"E2B_API_KEY": key, "E2B_API_URL": fake.URL()}, block: block{}, tier: "base"},
		{name: "no key", block: block{}, wantErr: configureE2BError("No E2B API key", "e2b {}",
			"Set e2b { api_key = ... } or the E2B_API_KEY environment variable. Create a key in the E2B dashboard.")},
		{name: "empty key, none in env", block: block{"api_key": `""`},
			wantErr: configureE2BError("No E2B API key", `api_key = ""`, "Set e2b { api_key = ... }")},
		{name: "unknown key", block: block{"api_key": "terraform_data.later.output"},
			wantErr: configureE2BError("Unknown E2B API key", "api_key = terraform_data.later.output",
				"e2b.api_key depends on a value known only after apply; the provider needs it to plan. Set it to a known value or use E2B_API_KEY.")},
		{name: "unknown url", env: map[string]string{"E2B_API_KEY": key}, block: block{"api_url": "terraform_data.later.output"},
			wantErr: configureE2BError("Unknown E2B API URL", "api_url = terraform_data.later.output", "e2b.api_url depends on a value known only after apply")},
		{name: "bad url", env: map[string]string{"E2B_API_KEY": key}, block: block{"api_url": `"not a url"`},
			wantErr: configureE2BError("Unsupported E2B API URL", `api_url = "not a url"`, `e2b.api_url = "not a url" is not an absolute http(s) URL`)},
		{name: "bad url from env", env: map[string]string{"E2B_API_KEY": key, "E2B_API_URL": "ftp://x"}, block: block{},
			wantErr: configureE2BError("Unsupported E2B API URL", `provider "sbx" {`, `E2B_API_URL = "ftp://x" is not an absolute http(s) URL`)},
		{name: "url with a query", env: map[string]string{"E2B_API_KEY": key}, block: block{"api_url": `"https://x/?a=1"`},
			wantErr: configureE2BError("Unsupported E2B API URL", `api_url = "https://x/?a=1"`, "carries a query or fragment")},
		// The block's schema holds the tiers, so terraform refuses another
		// at validate time, before Configure (whose own check of the value,
		// "Unsupported E2B tier", TestDefinitionResolve covers).
		{name: "bad tier", env: map[string]string{"E2B_API_KEY": key}, block: block{"tier": `"gold"`},
			wantErr: configureE2BError("Invalid Attribute Value Match", `tier = "gold"`, `e2b.tier value must be one of: ["base" "pro"], got: "gold"`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{"E2B_API_KEY", "E2B_API_URL"} {
				t.Setenv(k, tt.env[k])
			}
			cfg := "provider \"sbx\" {\n  e2b {}\n}\n"
			if len(tt.block) > 0 {
				var b strings.Builder
				b.WriteString("provider \"sbx\" {\n  e2b {\n")
				for _, name := range []string{"api_key", "api_url", "tier"} {
					if v, ok := tt.block[name]; ok {
						fmt.Fprintf(&b, "    %s = %s\n", name, v)
					}
				}
				b.WriteString("  }\n}\n")
				cfg = b.String()
			}
			if strings.Contains(cfg, "terraform_data.later") {
				cfg += "resource \"terraform_data\" \"later\" {\n  input = \"x\"\n}\n"
			}
			var steps []resource.TestStep
			if tt.wantErr != nil {
				// The error, and again, now matched against "any text without
				// the key".
				for _, expect := range []*regexp.Regexp{tt.wantErr, acctest.Without(key)} {
					steps = append(steps, resource.TestStep{
						Config:      cfg + `data "sbx_sandboxes" "all" {}`,
						PlanOnly:    true,
						ExpectError: expect,
					})
				}
			} else {
				steps = configureE2BSteps(fake, cfg, tt.tier)
			}
			resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: accFactories, Steps: steps})
		})
	}
}

// configureE2BSteps prove that the provider configured by cfg is E2B with
// the key, at the fake, of the given tier: a read reaches the fake (which
// refuses any other key), and a box with a 2h timeout plans on pro and is
// refused, naming E2B and the 1h maximum, on base.
func configureE2BSteps(fake *e2bfake.Server, cfg, tier string) []resource.TestStep {
	before := 0
	box := cfg + "resource \"sbx_sandbox\" \"s\" {\n  template_id = \"tpl\"\n  timeout     = \"2h\"\n}\n"
	read := resource.TestStep{
		PreConfig: func() { before = fake.Requests("GET /v2/sandboxes") },
		Config:    cfg + `data "sbx_sandboxes" "all" {}`,
		Check: func(*terraform.State) error {
			if fake.Requests("GET /v2/sandboxes") == before {
				return fmt.Errorf("the sandboxes were not read from the E2B fake")
			}
			return nil
		},
	}
	plan := resource.TestStep{Config: box, PlanOnly: true}
	if tier == "pro" {
		plan.ExpectNonEmptyPlan = true
		plan.ConfigPlanChecks = resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction("sbx_sandbox.s", plancheck.ResourceActionCreate),
			plancheck.ExpectKnownValue("sbx_sandbox.s", tfjsonpath.New("platform"), knownvalue.StringExact("e2b")),
		}}
	} else {
		plan.ExpectError = acctest.ErrorPattern(`timeout = "2h" is above the maximum of 1h on e2b`)
	}
	return []resource.TestStep{read, plan}
}

// TestProviderE2BBlockSchema: the e2b block's attributes, as terraform and
// the docs get them from the provider's schema: the key sensitive, and each
// default named.
func TestProviderE2BBlockSchema(t *testing.T) {
	server, err := accFactories[acctest.ProviderName]()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var block *tfprotov6.SchemaBlock
	for _, nb := range resp.Provider.Block.BlockTypes {
		if nb.TypeName == "e2b" {
			block = nb.Block
		}
	}
	if block == nil {
		t.Fatalf("the provider has no e2b block: %+v", resp.Provider.Block.BlockTypes)
	}
	attrs := map[string]*tfprotov6.SchemaAttribute{}
	for _, a := range block.Attributes {
		attrs[a.Name] = a
	}
	for _, name := range []string{"api_key", "api_url", "tier"} {
		if attrs[name] == nil {
			t.Fatalf("the e2b block has no %s: %v", name, attrs)
		}
	}
	if !attrs["api_key"].Sensitive || attrs["api_url"].Sensitive || attrs["tier"].Sensitive {
		t.Errorf("only api_key must be sensitive")
	}
	for name, want := range map[string]string{
		"api_key": "E2B API key, sent as `X-API-Key`. Never logged. Defaults to the `E2B_API_KEY` environment variable.",
		"api_url": "E2B API root. Defaults to the `E2B_API_URL` environment variable, else `https://api.e2b.app`.",
		"tier":    "Your E2B plan, `base` (default) or `pro`.",
	} {
		if got := attrs[name].Description; !strings.HasPrefix(got, want) {
			t.Errorf("e2b.%s description = %q, want %q", name, got, want)
		}
	}
}

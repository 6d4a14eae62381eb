package provider

import (
	"context"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/nothing"
)

// withNothing is the provider's platform list plus the do-nothing platform:
// registering a platform is one more entry in the list.
func withNothing() []platform.Definition {
	return append(Platforms(), nothing.Definition())
}

// TestRegisteredPlatformAppearsAsBlock: a platform registered in the list
// becomes a provider block with its settings, sensitive where it says so,
// and nothing else in the provider has to know it.
func TestRegisteredPlatformAppearsAsBlock(t *testing.T) {
	var resp provider.SchemaResponse
	NewWithOptions("test", Options{Platforms: withNothing()})().Schema(context.Background(), provider.SchemaRequest{}, &resp)
	block, ok := resp.Schema.Blocks[nothing.Name].(schema.SingleNestedBlock)
	if !ok {
		t.Fatalf("no %q block in the provider schema: %v", nothing.Name, resp.Schema.Blocks)
	}
	token, ok := block.Attributes["token"].(schema.StringAttribute)
	if !ok || !token.Sensitive || !token.Optional {
		t.Fatalf("token attribute = %+v, want an optional sensitive string", block.Attributes["token"])
	}
	if !regexp.MustCompile(regexp.QuoteMeta(nothing.TokenEnv)).MatchString(token.MarkdownDescription) {
		t.Errorf("token description %q does not name its environment variable %s", token.MarkdownDescription, nothing.TokenEnv)
	}
	var without provider.SchemaResponse
	NewWithOptions("test", Options{})().Schema(context.Background(), provider.SchemaRequest{}, &without)
	if _, ok := without.Schema.Blocks[nothing.Name]; ok {
		t.Errorf("the %q block appears without being registered", nothing.Name)
	}
}

// TestAccRegisteredPlatformTokenFromEnv: the registered do-nothing
// platform's token comes from the environment when its block leaves it out
// (a read plans), and a missing token is an error naming the setting and
// the variable. (Its conformance refusal steps run with the other
// platforms', in internal/conformance.)
func TestAccRegisteredPlatformTokenFromEnv(t *testing.T) {
	acctest.RequireTerraform(t)
	factories := testAccFactories(Options{Platforms: withNothing()})
	cfg := "provider \"sbx\" {\n  nothing {}\n}\n"
	t.Setenv(nothing.TokenEnv, "from-env")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{{
			Config:   cfg + "data \"sbx_sandboxes\" \"all\" {}\n",
			PlanOnly: true,
		}},
	})

	t.Setenv(nothing.TokenEnv, "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{{
			Config:      cfg + "resource \"sbx_volume\" \"v\" {\n  name = \"v\"\n}\n",
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)token.*` + nothing.TokenEnv),
		}},
	})
}

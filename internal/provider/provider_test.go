package provider

import (
	"context"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// testAccProtoV6ProviderFactories serves the provider in-process to the
// real terraform CLI, with the registered platforms and waits that end at
// once (acctest.NoWaitHooks), so tests against a platform's fake do not
// sleep.
var testAccProtoV6ProviderFactories = testAccFactories(Options{Hooks: acctest.NoWaitHooks()})

// testAccFactories serves a provider built with opts (acctest.Factories):
// every server gets its own provider instance, so tests with their own
// options (hooks recording the waits, a clock) run in parallel with the
// others.
func testAccFactories(opts Options) map[string]func() (tfprotov6.ProviderServer, error) {
	return acctest.Factories(NewWithOptions("test", opts))
}

// testProviderServer is the provider's protocol server, as Terraform talks
// to it, with the schemas it serves: for tests that call its RPCs directly.
func testProviderServer(t *testing.T) (tfprotov6.ProviderServer, *tfprotov6.GetProviderSchemaResponse) {
	t.Helper()
	server := providerserver.NewProtocol6(New("test")())()
	schemas, err := server.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	return server, schemas
}

// testAccPreCheck is the PreCheck of the acceptance tests on Docker: it
// skips the test in the tiers without an engine and fails it when TF_ACC is
// set and the engine is not reachable (acctest.RequireDocker). Tests against
// a platform's fake or an in-process fake need only the terraform CLI and
// must not use it.
func testAccPreCheck(t *testing.T) {
	t.Helper()
	acctest.RequireDocker(t)
}

// A setting the platform cannot honour is an error, never silently ignored:
// Docker requests are not retried, so max_retries is refused there.
func TestAccProvider_maxRetriesOnDocker(t *testing.T) {
	acctest.RequireDocker(t)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "sbx" {
  max_retries = 3
}

data "sbx_snapshots" "all" {}
`,
			ExpectError: regexp.MustCompile(`max_retries = 3 applies to the REST platforms`),
		}},
	})
}

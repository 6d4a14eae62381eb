package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// testAccProtoV6ProviderFactories serves the provider in-process to the real terraform CLI.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"sbx": providerserver.NewProtocol6WithError(New("test")()),
}

// testAccPreCheck fails the test when the Docker engine is not reachable.
func testAccPreCheck(t *testing.T) {
	t.Helper()
	acctest.DockerClient(t)
}

// A setting the platform cannot honour is an error, never silently ignored:
// Docker requests are not retried, so max_retries is refused there.
func TestAccProvider_maxRetriesOnDocker(t *testing.T) {
	resource.Test(t, resource.TestCase{
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

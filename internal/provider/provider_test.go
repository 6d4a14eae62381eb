package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

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

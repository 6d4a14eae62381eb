// Command terraform-provider-sbx serves the sbx Terraform provider.
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/sbxhq/terraform-provider-sbx/internal/drift"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// version is set by the release build (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	// `terraform-provider-sbx drift STATE` is the retention drift detector;
	// anything else serves the provider to Terraform.
	if len(os.Args) > 1 && os.Args[1] == "drift" {
		os.Exit(drift.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr, retention.SystemClock{}))
	}

	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	opts := providerserver.ServeOpts{
		Address: "registry.terraform.io/sbxhq/sbx",
		Debug:   debug,
	}
	if err := providerserver.Serve(context.Background(), provider.New(version), opts); err != nil {
		log.Fatal(err.Error())
	}
}

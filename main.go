// Command terraform-provider-sbx serves the sbx Terraform provider.
package main

import (
	"context"
	"flag"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/drift"
	"github.com/sbxhq/terraform-provider-sbx/internal/orphans"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// version is set by the release build (-ldflags "-X main.version=...").
var version = "dev"

func main() {
	// `terraform-provider-sbx drift STATE` is the retention drift detector,
	// `terraform-provider-sbx orphans STATE...` finds what no state holds;
	// anything else serves the provider to Terraform.
	if len(os.Args) > 1 && os.Args[1] == "drift" {
		os.Exit(drift.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr, clock.System{}))
	}
	if len(os.Args) > 1 && os.Args[1] == "orphans" {
		// Ctrl-C stops between removals, and the report still says what was done.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := orphans.Main(ctx, os.Args[2:], orphans.Env{
			Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Version: version,
			Platforms: platforms.All(),
		})
		stop()
		os.Exit(code)
	}

	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	opts := providerserver.ServeOpts{
		Address: "registry.terraform.io/sbxhq/sbx",
		Debug:   debug,
	}
	if err := silenceUnaskedLogsHere(); err != nil {
		log.Fatal(err.Error())
	}
	relaxGCHere()
	stopProfile := startCPUProfile()
	err := providerserver.Serve(context.Background(), provider.New(version), opts)
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}

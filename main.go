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
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/cpuprofile"
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

	if err := silenceUnaskedLogsHere(); err != nil {
		log.Fatal(err.Error())
	}
	relaxGCHere()
	gate, err := newApplyGate(providerserver.NewProtocol6(provider.New(version)())())
	if err != nil {
		log.Fatal(err.Error())
	}
	var serveOpts []tf6server.ServeOpt
	if debug {
		serveOpts = append(serveOpts, tf6server.WithManagedDebug())
	}
	stopProfile := cpuprofile.Start()
	if !debug {
		endWhenOrphaned(gate, stopProfile)
	}
	err = tf6server.Serve("registry.terraform.io/sbxhq/sbx", func() tfprotov6.ProviderServer { return gate }, serveOpts...)
	stopProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}

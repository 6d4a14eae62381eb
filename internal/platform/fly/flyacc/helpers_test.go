package flyacc_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

// flyAccToken is the API token the fakes of these tests accept.
const flyAccToken = "fly_acc_test_token_5b2d"

// flyAccApp is the app every test's machines and volumes live in.
const flyAccApp = "sbx-acc"

// flyAccImage is the image the tests' templates record.
const flyAccImage = "registry.fly.io/sbx-agent:1.0"

// flyPlatforms are the provider's platforms with Fly among them, whether or
// not the provider's own list (provider.Platforms) names it yet.
func flyPlatforms() []platform.Definition {
	defs := platforms.All()
	for _, d := range defs {
		if d.Name == "fly" {
			return defs
		}
	}
	return append(defs, fly.Definition())
}

// flyFactories serves the provider built with opts, Fly registered (unless
// opts names the platforms), to the terraform CLI.
func flyFactories(opts provider.Options) map[string]func() (tfprotov6.ProviderServer, error) {
	if opts.Platforms == nil {
		opts.Platforms = flyPlatforms()
	}
	return acctest.Factories(provider.NewWithOptions("test", opts))
}

// flyAccFactories serves the provider with waits that end at once
// (acctest.NoWaitHooks): polls, retries and lookups do not sleep. A test
// of the client's pacing against the fake's real-time rate limits uses
// flyRealTimeFactories instead.
var flyAccFactories = flyFactories(provider.Options{Hooks: acctest.NoWaitHooks()})

// flyRealTimeFactories serves the provider with its real waits: the
// client's pacing and the fake's rate limits both run on the wall clock.
var flyRealTimeFactories = flyFactories(provider.Options{})

// flyAccFake starts a Fly fake for one test (its token and app set) and
// returns it with the provider block pointing at it. When the test ends,
// every request or response that broke Fly's spec fails it.
func flyAccFake(t *testing.T, opts flyfake.Options) (*flyfake.Server, string) {
	t.Helper()
	opts.APIToken = flyAccToken
	if len(opts.Apps) == 0 {
		opts.Apps = []string{flyAccApp}
	}
	fake := flyfake.New(t, opts)
	t.Cleanup(func() {
		if v := fake.SpecViolations(); len(v) > 0 {
			t.Errorf("requests or responses broke Fly's spec:\n%s", strings.Join(v, "\n"))
		}
	})
	return fake, flyProviderBlock(fake)
}

// flyProviderBlock is the provider block pointing at fake.
func flyProviderBlock(fake *flyfake.Server) string {
	return fmt.Sprintf("provider \"sbx\" {\n  fly {\n    api_token = %q\n    app       = %q\n    api_url   = %q\n  }\n}\n",
		flyAccToken, flyAccApp, fake.URL())
}

// flyTemplateHCL is a template recording flyAccImage, named name.
func flyTemplateHCL(name string) string {
	return fmt.Sprintf("resource \"sbx_template\" \"t\" {\n  name  = %q\n  image = %q\n}\n", name, flyAccImage)
}

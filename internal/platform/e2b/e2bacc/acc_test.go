package e2bacc_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

const e2bAccKey = "e2b_acc_test_key_5f1d2c"

// factories serves the provider built with opts (its registered platforms
// unless opts says otherwise) to the terraform CLI.
func factories(opts provider.Options) map[string]func() (tfprotov6.ProviderServer, error) {
	return acctest.Factories(provider.NewWithOptions("test", opts))
}

// accFactories serves the provider with its registered platforms and
// waits that end at once (acctest.NoWaitHooks): E2B's build polls, and its
// retries, which the E2B fake provokes, do not sleep.
var accFactories = factories(provider.Options{Hooks: acctest.NoWaitHooks()})

// e2bAccFake starts an E2B fake for one test and returns it and the
// provider block pointing at it. Served by accFactories, build polls and
// retries do not wait; a test that records the waits serves its own with
// factories.
func e2bAccFake(t *testing.T, opts e2bfake.Options) (*e2bfake.Server, string) {
	t.Helper()
	opts.APIKey = e2bAccKey
	fake := e2bAccServe(t, opts)
	return fake, fmt.Sprintf("provider \"sbx\" {\n  e2b {\n    api_key = %q\n    api_url = %q\n    tier    = \"pro\"\n  }\n}\n", e2bAccKey, fake.URL())
}

// e2bAccServe starts an E2B fake for one test (opts.APIKey is the key it
// accepts); when the test ends, every request or response that broke the
// E2B spec fails it.
func e2bAccServe(t *testing.T, opts e2bfake.Options) *e2bfake.Server {
	t.Helper()
	fake := e2bfake.New(t, opts)
	t.Cleanup(func() {
		if v := fake.SpecViolations(); len(v) > 0 {
			t.Errorf("requests or responses broke the E2B spec:\n%s", strings.Join(v, "\n"))
		}
	})
	return fake
}

// e2bAccBoxes is a template and n sandboxes from it.
func e2bAccBoxes(providerConfig string, n int) string {
	return providerConfig + fmt.Sprintf(`
resource "sbx_template" "t" {
  name       = "resilience"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "s" {
  count       = %d
  name        = "box-${count.index}"
  template_id = sbx_template.t.id
  timeout     = "10m"
}
`, n)
}

// e2bAccBoxCount checks how many sandboxes exist on the fake.
func e2bAccBoxCount(fake *e2bfake.Server, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := len(fake.Sandboxes()); got != want {
			return fmt.Errorf("the fake holds %d sandboxes, want %d", got, want)
		}
		return nil
	}
}

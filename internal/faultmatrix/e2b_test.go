package faultmatrix_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

const e2bKey = "e2b_faultmatrix_key_7d3a91"

// e2bTarget is E2B, through e2bfake's fault queue: a 429 carries
// Retry-After, as E2B sends it.
type e2bTarget struct{}

func (e2bTarget) name() string { return "e2b" }

type e2bEnv struct {
	fake *e2bfake.Server
}

func (e2bTarget) start(t *testing.T) env {
	t.Helper()
	fake := e2bfake.New(t, e2bfake.Options{APIKey: e2bKey})
	failOnSpecViolations(t, "E2B", fake.SpecViolations)
	return &e2bEnv{fake: fake}
}

func (e *e2bEnv) providerBlock() string {
	return fmt.Sprintf("provider \"sbx\" {\n  e2b {\n    api_key = %q\n    api_url = %q\n    tier    = \"pro\"\n  }\n}\n", e2bKey, e.fake.URL())
}

func (e *e2bEnv) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return acctest.Factories(provider.NewWithOptions("test", provider.Options{Hooks: acctest.NoWaitHooks()}))
}

func (e *e2bEnv) inject(route string, f fault, n int) {
	e.fake.Inject(route, e2bFault(f, n))
}

// e2bFault is f as e2bfake injects it.
func e2bFault(f fault, n int) e2bfake.Fault {
	switch f {
	case faultNone:
		return e2bfake.Fault{Times: n}
	case fault429:
		return e2bfake.Fault{Status: http.StatusTooManyRequests, RetryAfter: "1", Times: n}
	case fault500:
		return e2bfake.Fault{Status: http.StatusInternalServerError, Times: n}
	case fault503:
		return e2bfake.Fault{Status: http.StatusServiceUnavailable, RetryAfter: "1", Times: n}
	case faultDropBefore:
		return e2bfake.Fault{DropBeforeHandling: true, Times: n}
	case faultDropAfter:
		return e2bfake.Fault{DropAfterHandling: true, Times: n}
	default:
		return e2bfake.Fault{Latency: injectedLatency, Times: n}
	}
}

func (e *e2bEnv) hits(route string) int { return e.fake.Requests(route) }

func (e *e2bEnv) holds(k kind, inState []string) error {
	var live []string
	switch k.name {
	case "volume":
		for _, v := range e.fake.Volumes() {
			live = append(live, v.ID)
		}
	case "template":
		for _, v := range e.fake.Templates() {
			live = append(live, v.ID)
		}
	case "sandbox":
		for _, v := range e.fake.Sandboxes() {
			live = append(live, v.ID)
		}
	case "snapshot":
		for _, v := range e.fake.Snapshots() {
			live = append(live, v.SnapshotID)
		}
	}
	return compareIDs(k, live, inState)
}

func (e2bTarget) cannot(string, fault) string { return "" }

func (e2bTarget) expect(k kind, o op, f fault) outcome {
	return expectREST(k.routes[o], o, f)
}

const e2bTemplateHCL = `
resource "sbx_template" "t" {
  name       = "fm-tpl"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}
`

const e2bSandboxHCL = `
resource "sbx_sandbox" "b" {
  name        = "fm-box"
  template_id = sbx_template.t.id
  timeout     = "10m"
}
`

func (e2bTarget) kinds() []kind {
	return []kind{
		{
			name: "volume",
			hcl: func(_ bool, timeouts string) string {
				return "resource \"sbx_volume\" \"v\" {\n  name = \"fm-vol\"\n" + timeouts + "}\n"
			},
			routes: map[op]string{opCreate: "POST /volumes", opRead: "GET /volumes/{volumeID}", opDelete: "DELETE /volumes/{volumeID}"},
			why:    map[op]string{opUpdate: "an E2B volume has nothing to change in place (its name replaces it; labels, size_gb and region are refused at plan time)"},
		},
		{
			name: "template",
			hcl: func(updated bool, timeouts string) string {
				step := "ok"
				if updated {
					step = "changed"
				}
				return fmt.Sprintf("resource \"sbx_template\" \"t\" {\n  name       = \"fm-tpl\"\n  dockerfile = \"FROM alpine:3.20\\nRUN echo %s\\n\"\n%s}\n", step, timeouts)
			},
			routes: map[op]string{
				opCreate: "POST /v3/templates", opRead: "GET /templates/{templateID}",
				opUpdate: "POST /v2/templates/{templateID}/builds/{buildID}", opDelete: "DELETE /templates/{templateID}",
			},
		},
		{
			name: "sandbox", deps: e2bTemplateHCL,
			hcl: func(updated bool, timeouts string) string {
				timeout := "10m"
				if updated {
					timeout = "20m"
				}
				return fmt.Sprintf("resource \"sbx_sandbox\" \"b\" {\n  name        = \"fm-box\"\n  template_id = sbx_template.t.id\n  timeout     = %q\n%s}\n", timeout, timeouts)
			},
			routes: map[op]string{
				opCreate: "POST /sandboxes", opRead: "GET /sandboxes/{sandboxID}",
				opUpdate: "POST /sandboxes/{sandboxID}/timeout", opDelete: "DELETE /sandboxes/{sandboxID}",
			},
		},
		{
			name: "snapshot", deps: e2bTemplateHCL + e2bSandboxHCL,
			hcl: func(_ bool, timeouts string) string {
				return "resource \"sbx_snapshot\" \"s\" {\n  sandbox_id = sbx_sandbox.b.id\n  name       = \"fm-snap\"\n" + timeouts + "}\n"
			},
			routes: map[op]string{opCreate: "POST /sandboxes/{sandboxID}/snapshots", opRead: "GET /snapshots", opDelete: "DELETE /templates/{templateID}"},
			why:    map[op]string{opUpdate: "snapshots are immutable: every change replaces them"},
		},
	}
}

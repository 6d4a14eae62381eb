package faultmatrix_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

const daytonaKey = "dtn_faultmatrix_key_4b8e20"

// daytonaImage is the image the templates adopt: a pinned tag, since
// Daytona refuses moving ones.
const daytonaImage = "python:3.12-slim"

// daytonaTarget is Daytona, through daytonafake's fault queue: a 429 is
// written as Daytona's throttlers write it, Retry-After-{throttler} (no
// plain Retry-After).
type daytonaTarget struct{}

func (daytonaTarget) name() string { return "daytona" }

type daytonaEnv struct {
	fake *daytonafake.Server
}

func (daytonaTarget) start(t *testing.T) env {
	t.Helper()
	fake := daytonafake.New(t, daytonafake.Options{APIKey: daytonaKey})
	failOnSpecViolations(t, "Daytona", fake.SpecViolations)
	return &daytonaEnv{fake: fake}
}

func (e *daytonaEnv) providerBlock() string {
	return fmt.Sprintf("provider \"sbx\" {\n  daytona {\n    api_key = %q\n    api_url = %q\n  }\n}\n", daytonaKey, e.fake.URL())
}

func (e *daytonaEnv) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return acctest.Factories(provider.NewWithOptions("test", provider.Options{Hooks: acctest.NoWaitHooks()}))
}

func (e *daytonaEnv) inject(route string, f fault, n int) {
	e.fake.Inject(route, daytonaFault(f, n))
}

// daytonaFault is f as daytonafake injects it; a 429 names the route's
// throttler.
func daytonaFault(f fault, n int) daytonafake.Fault {
	switch f {
	case faultNone:
		return daytonafake.Fault{Times: n}
	case fault429:
		return daytonafake.Fault{Status: http.StatusTooManyRequests, RetryAfter: 1, Times: n}
	case fault500:
		return daytonafake.Fault{Status: http.StatusInternalServerError, Times: n}
	case fault503:
		return daytonafake.Fault{Status: http.StatusServiceUnavailable, RetryAfter: 1, Times: n}
	case faultDropBefore:
		return daytonafake.Fault{DropBeforeHandling: true, Times: n}
	case faultDropAfter:
		return daytonafake.Fault{DropAfterHandling: true, Times: n}
	default:
		return daytonafake.Fault{Latency: injectedLatency, Times: n}
	}
}

func (e *daytonaEnv) hits(route string) int { return e.fake.Requests(route) }

func (e *daytonaEnv) holds(k kind, inState []string) error {
	var live []string
	switch k.name {
	case "volume":
		for _, v := range e.fake.Volumes() {
			// A volume being deleted is on its way out: Daytona
			// finishes the delete it accepted by itself.
			if v.State != "deleted" && v.State != "pending_delete" && v.State != "deleting" {
				live = append(live, v.ID)
			}
		}
	case "template", "snapshot":
		for _, v := range e.fake.Snapshots() {
			if v.Removed || v.General || (v.FromSandbox != "") != (k.name == "snapshot") {
				continue
			}
			live = append(live, v.ID)
		}
	case "sandbox":
		for _, v := range e.fake.Sandboxes() {
			if !v.Destroyed {
				live = append(live, v.ID)
			}
		}
	}
	return compareIDs(k, live, inState)
}

func (daytonaTarget) cannot(string, fault) string { return "" }

// expect: Daytona refuses a second sandbox, volume or snapshot of a name,
// so a create whose answer was lost and whose object is not found is sent
// once more (a first create that did land is refused as taken, then
// found): every create converges.
func (daytonaTarget) expect(k kind, o op, f fault) outcome {
	if o == opCreate && f != faultLatency {
		return converges
	}
	return expectREST(k.routes[o], o, f)
}

const daytonaTemplateHCL = `
resource "sbx_template" "t" {
  name  = "fm-tpl"
  image = "` + daytonaImage + `"
}
`

const daytonaSandboxHCL = `
resource "sbx_sandbox" "b" {
  name        = "fm-box"
  template_id = sbx_template.t.id
}
`

func (daytonaTarget) kinds() []kind {
	return []kind{
		{
			name: "volume",
			hcl: func(_ bool, timeouts string) string {
				return "resource \"sbx_volume\" \"v\" {\n  name = \"fm-vol\"\n" + timeouts + "}\n"
			},
			routes: map[op]string{opCreate: "POST /volumes", opRead: "GET /volumes/{volumeId}", opDelete: "DELETE /volumes/{volumeId}"},
			why:    map[op]string{opUpdate: "a Daytona volume has nothing to change in place (its name replaces it; labels, size_gb and region are refused at plan time)"},
		},
		{
			name: "template",
			hcl: func(_ bool, timeouts string) string {
				return "resource \"sbx_template\" \"t\" {\n  name  = \"fm-tpl\"\n  image = \"" + daytonaImage + "\"\n" + timeouts + "}\n"
			},
			routes: map[op]string{opCreate: "POST /snapshots", opRead: "GET /snapshots/{id}", opDelete: "DELETE /snapshots/{id}"},
			why:    map[op]string{opUpdate: "Daytona snapshots cannot be rebuilt: every change of a template replaces it"},
		},
		{
			name: "sandbox", deps: daytonaTemplateHCL,
			hcl: func(updated bool, timeouts string) string {
				label := "a"
				if updated {
					label = "b"
				}
				return fmt.Sprintf("resource \"sbx_sandbox\" \"b\" {\n  name        = \"fm-box\"\n  template_id = sbx_template.t.id\n  labels      = { team = %q }\n%s}\n", label, timeouts)
			},
			routes: map[op]string{
				opCreate: "POST /sandbox", opRead: "GET /sandbox/{sandboxIdOrName}",
				opUpdate: "PUT /sandbox/{sandboxIdOrName}/labels", opDelete: "DELETE /sandbox/{sandboxIdOrName}",
			},
		},
		{
			name: "snapshot", deps: daytonaTemplateHCL + daytonaSandboxHCL,
			hcl: func(_ bool, timeouts string) string {
				return "resource \"sbx_snapshot\" \"s\" {\n  sandbox_id = sbx_sandbox.b.id\n  name       = \"fm-snap\"\n" + timeouts + "}\n"
			},
			routes: map[op]string{opCreate: "POST /sandbox/{sandboxIdOrName}/snapshot", opRead: "GET /snapshots/{id}", opDelete: "DELETE /snapshots/{id}"},
			why:    map[op]string{opUpdate: "snapshots are immutable: every change replaces them"},
		},
	}
}

package faultmatrix_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

const (
	flyToken = "fly_faultmatrix_token_2c6f"
	flyApp   = "sbx-fm"
	flyImage = "registry.fly.io/sbx-agent:1.0"
)

// flyTarget is Fly's Machines API, through flyfake's fault queue: a 429
// carries Retry-After, as Fly's proxy sends it.
type flyTarget struct{}

func (flyTarget) name() string { return "fly" }

type flyEnv struct {
	fake *flyfake.Server
}

func (flyTarget) start(t *testing.T) env {
	t.Helper()
	fake := flyfake.New(t, flyfake.Options{APIToken: flyToken, Apps: []string{flyApp}})
	failOnSpecViolations(t, "Fly", fake.SpecViolations)
	return &flyEnv{fake: fake}
}

func (e *flyEnv) providerBlock() string {
	return fmt.Sprintf("provider \"sbx\" {\n  fly {\n    api_token = %q\n    app       = %q\n    api_url   = %q\n  }\n}\n", flyToken, flyApp, e.fake.URL())
}

func (e *flyEnv) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return acctest.Factories(provider.NewWithOptions("test", provider.Options{
		Hooks: acctest.NoWaitHooks(),
	}))
}

func (e *flyEnv) inject(route string, f fault, n int) {
	e.fake.Inject(route, flyFault(f, n))
}

// flyFault is f as flyfake injects it.
func flyFault(f fault, n int) flyfake.Fault {
	switch f {
	case faultNone:
		return flyfake.Fault{Times: n}
	case fault429:
		return flyfake.Fault{Status: http.StatusTooManyRequests, RetryAfter: "1", Times: n}
	case fault500:
		return flyfake.Fault{Status: http.StatusInternalServerError, Times: n}
	case fault503:
		return flyfake.Fault{Status: http.StatusServiceUnavailable, RetryAfter: "1", Times: n}
	case faultDropBefore:
		return flyfake.Fault{DropBeforeHandling: true, Times: n}
	case faultDropAfter:
		return flyfake.Fault{DropAfterHandling: true, Times: n}
	default:
		return flyfake.Fault{Latency: injectedLatency, Times: n}
	}
}

func (e *flyEnv) hits(route string) int { return e.fake.Requests(route) }

func (e *flyEnv) holds(k kind, inState []string) error {
	var live []string
	switch k.name {
	case "volume":
		for _, v := range e.fake.Volumes() {
			if v.State != flyfake.VolumeScheduledDestroy && v.State != flyfake.VolumeDestroyed {
				live = append(live, v.ID)
			}
		}
	case "sandbox":
		for _, m := range e.fake.Machines() {
			if !m.Destroyed {
				live = append(live, m.ID)
			}
		}
	case "snapshot":
		for _, v := range e.fake.Volumes() {
			for _, s := range e.fake.Snapshots(v.ID) {
				if !s.Automatic {
					live = append(live, v.ID+":"+s.ID)
				}
			}
		}
	case "template":
		// A Fly template is a record in state, with nothing on Fly.
		return nil
	}
	return compareIDs(k, live, inState)
}

func (flyTarget) cannot(string, fault) string { return "" }

func (flyTarget) expect(k kind, o op, f fault) outcome {
	// A machine update is a POST of the whole config: sent twice it sets
	// the same config, so the client repeats it like a PUT.
	if k.name == "sandbox" && o == opUpdate && f != faultLatency {
		return converges
	}
	return expectREST(k.routes[o], o, f)
}

const flyTemplateHCL = `
resource "sbx_template" "t" {
  name  = "fm-tpl"
  image = "` + flyImage + `"
}
`

const flyVolumeHCL = `
resource "sbx_volume" "v" {
  name    = "fm_vol"
  size_gb = 1
}
`

const flyNoRequest = "a Fly template is a record in state of an image reference: Fly has no template API, so no request is sent"

func (flyTarget) kinds() []kind {
	return []kind{
		{
			name: "volume",
			hcl: func(updated bool, timeouts string) string {
				size := 1
				if updated {
					size = 2
				}
				return fmt.Sprintf("resource \"sbx_volume\" \"v\" {\n  name    = \"fm_vol\"\n  size_gb = %d\n%s}\n", size, timeouts)
			},
			routes: map[op]string{
				opCreate: "POST /apps/{app_name}/volumes", opRead: "GET /apps/{app_name}/volumes/{volume_id}",
				opUpdate: "PUT /apps/{app_name}/volumes/{volume_id}/extend", opDelete: "DELETE /apps/{app_name}/volumes/{volume_id}",
			},
		},
		{
			name: "template",
			hcl: func(_ bool, timeouts string) string {
				return "resource \"sbx_template\" \"t\" {\n  name  = \"fm-tpl\"\n  image = \"" + flyImage + "\"\n" + timeouts + "}\n"
			},
			routes: map[op]string{},
			why:    map[op]string{opCreate: flyNoRequest, opRead: flyNoRequest, opUpdate: flyNoRequest, opDelete: flyNoRequest},
		},
		{
			name: "sandbox", deps: flyTemplateHCL,
			hcl: func(updated bool, timeouts string) string {
				mem := 256
				if updated {
					mem = 512
				}
				return fmt.Sprintf("resource \"sbx_sandbox\" \"b\" {\n  name        = \"fm-box\"\n  template_id = sbx_template.t.id\n  memory_mb   = %d\n%s}\n", mem, timeouts)
			},
			routes: map[op]string{
				opCreate: "POST /apps/{app_name}/machines", opRead: "GET /apps/{app_name}/machines/{machine_id}",
				opUpdate: "POST /apps/{app_name}/machines/{machine_id}", opDelete: "DELETE /apps/{app_name}/machines/{machine_id}",
			},
		},
		{
			name: "snapshot", deps: flyVolumeHCL, kept: true,
			hcl: func(_ bool, timeouts string) string {
				return "resource \"sbx_snapshot\" \"s\" {\n  volume_id = sbx_volume.v.id\n" + timeouts + "}\n"
			},
			routes: map[op]string{opCreate: "POST /apps/{app_name}/volumes/{volume_id}/snapshots", opRead: "GET /apps/{app_name}/volumes/{volume_id}/snapshots"},
			why: map[op]string{
				opUpdate: "snapshots are immutable: every change replaces them",
				opDelete: "Fly cannot delete snapshots: destroy forgets one with a warning and sends no request",
			},
		},
	}
}

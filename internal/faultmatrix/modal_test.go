package faultmatrix_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"google.golang.org/grpc/codes"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/modal/modalfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/provider"
)

const (
	modalApp   = "sbx-fm"
	modalImage = "ghcr.io/sbxhq/sbx-agent:1.0"
	// modalVolume is the name of the matrix's volume on Modal.
	modalVolume = "fm-vol"
)

// modalTarget is Modal, through modalfake's fault sequences: a 429 is
// RESOURCE_EXHAUSTED with Modal's RPCRetryPolicy detail, a 500 INTERNAL, a
// 503 UNAVAILABLE, a drop before acting cuts the call's connection, a held
// call waits in front of the handler until its deadline, all without
// acting; a drop after acting answers UNAVAILABLE once the handler acted.
type modalTarget struct{}

func (modalTarget) name() string { return "modal" }

type modalEnv struct {
	ws *modalfake.Workspace
	// images are the ids of every image a state held: Modal lists no
	// images (only published tags, which the provider does not make), so
	// these are the ones looked up.
	mu     sync.Mutex
	images map[string]bool
}

func (modalTarget) start(t *testing.T) env {
	t.Helper()
	return &modalEnv{ws: modalServer.NewWorkspace(t), images: map[string]bool{}}
}

func (e *modalEnv) providerBlock() string {
	return fmt.Sprintf("provider \"sbx\" {\n  modal {\n    token_id     = %q\n    token_secret = %q\n    app          = %q\n  }\n}\n",
		e.ws.TokenID(), e.ws.TokenSecret(), modalApp)
}

func (e *modalEnv) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return acctest.Factories(provider.NewWithOptions("test", provider.Options{
		Hooks: acctest.NoWaitHooks(), Clock: e.ws,
	}))
}

// modalRetryAfter is the wait a throttle asks for; the SDK waits it for
// real.
const modalRetryAfter = 100 * time.Millisecond

// inject queues f for the next n calls of method, after what is queued.
func (e *modalEnv) inject(method string, f fault, n int) {
	steps := make([]modalfake.Step, n)
	for i := range steps {
		steps[i] = modalStep(f)
	}
	e.ws.Sequence(method, steps...)
}

// modalStep is f as modalfake injects it on one call.
func modalStep(f fault) modalfake.Step {
	switch f {
	case faultNone:
		return modalfake.Step{}
	case fault429:
		return modalfake.Step{Code: codes.ResourceExhausted, RetryAfter: modalRetryAfter}
	case fault500:
		return modalfake.Step{Code: codes.Internal}
	case fault503:
		return modalfake.Step{Code: codes.Unavailable}
	case faultDropBefore:
		return modalfake.Step{DropRequest: true}
	case faultDropAfter:
		return modalfake.Step{DropAnswer: true}
	default:
		return modalfake.Step{Hold: injectedLatency}
	}
}

func (e *modalEnv) hits(method string) int { return e.ws.Calls(method) }

func (e *modalEnv) holds(k kind, inState []string) error {
	var live []string
	switch k.name {
	case "sandbox":
		for _, sb := range e.ws.Sandboxes() {
			if !sb.Finished {
				live = append(live, sb.ID)
			}
		}
	case "volume":
		// A Modal volume's id in state is its name.
		for _, v := range e.ws.Volumes() {
			live = append(live, v.Name)
		}
	default:
		// Modal lists no images: those any state held are looked up,
		// so an image a state forgot is found, one no state ever held
		// is not.
		e.mu.Lock()
		for _, id := range inState {
			e.images[id] = true
		}
		for id := range e.images {
			if v, ok := e.ws.Image(id); ok && isSnapshotImage(v) == (k.name == "snapshot") {
				live = append(live, id)
			}
		}
		e.mu.Unlock()
	}
	return compareIDs(k, live, inState)
}

// isSnapshotImage says whether an image is a filesystem snapshot.
func isSnapshotImage(v modalfake.ImageView) bool { return v.FromSandboxID != "" }

// cannot: modalfake injects every fault on every method of both services.
func (modalTarget) cannot(string, fault) string { return "" }

// expect: the SDK absorbs every fault but latency. It waits out
// RESOURCE_EXHAUSTED as the RPCRetryPolicy asks (the provider does so for
// the router's snapshots, which the SDK does not), and retries INTERNAL and
// UNAVAILABLE, whether the server acted or not: a control-plane retry
// carries the first call's x-idempotency-key, which the server answers
// with the first answer, and a snapshot's its snapshot_id. A call held
// past the operation's timeout ends with DEADLINE_EXCEEDED, which the SDK
// does not retry past the deadline: the apply fails, the server never
// acted, and the next apply does the operation.
func (modalTarget) expect(_ kind, _ op, f fault) outcome {
	if f == faultLatency {
		return retrySafe("the operation's timeout passes while the call is held in front of Modal's handler")
	}
	return converges
}

const modalTemplateHCL = `
resource "sbx_template" "t" {
  name  = "fm-tpl"
  image = "` + modalImage + `"
}
`

const modalSandboxHCL = `
resource "sbx_sandbox" "b" {
  name        = "fm-box"
  template_id = sbx_template.t.id
}
`

func (modalTarget) kinds() []kind {
	return []kind{
		{
			name: "volume",
			hcl: func(_ bool, timeouts string) string {
				return "resource \"sbx_volume\" \"v\" {\n  name = \"" + modalVolume + "\"\n" + timeouts + "}\n"
			},
			routes: map[op]string{opCreate: "VolumeGetOrCreate", opRead: "VolumeGetOrCreate", opDelete: "VolumeDelete"},
			why:    map[op]string{opUpdate: "a Modal volume has nothing to change in place (its name replaces it; labels, size_gb and region are refused at plan time)"},
		},
		{
			name: "template",
			hcl: func(_ bool, timeouts string) string {
				return "resource \"sbx_template\" \"t\" {\n  name  = \"fm-tpl\"\n  image = \"" + modalImage + "\"\n" + timeouts + "}\n"
			},
			routes: map[op]string{opCreate: "ImageGetOrCreate", opRead: "ImageFromId", opDelete: "ImageDelete"},
			why:    map[op]string{opUpdate: "every change of a Modal template replaces it"},
		},
		{
			name: "sandbox", deps: modalTemplateHCL,
			hcl: func(updated bool, timeouts string) string {
				label := "a"
				if updated {
					label = "b"
				}
				return fmt.Sprintf("resource \"sbx_sandbox\" \"b\" {\n  name        = \"fm-box\"\n  template_id = sbx_template.t.id\n  labels      = { team = %q }\n%s}\n", label, timeouts)
			},
			routes: map[op]string{opCreate: "SandboxCreateV2", opRead: "SandboxTagsGetV2", opUpdate: "SandboxTagsSetV2", opDelete: "SandboxTerminateV2"},
		},
		{
			name: "snapshot", deps: modalTemplateHCL + modalSandboxHCL,
			hcl: func(_ bool, timeouts string) string {
				return "resource \"sbx_snapshot\" \"s\" {\n  sandbox_id = sbx_sandbox.b.id\n" + timeouts + "}\n"
			},
			routes: map[op]string{opCreate: "TaskSnapshotFilesystem", opRead: "ImageFromId", opDelete: "ImageDelete"},
			why:    map[op]string{opUpdate: "snapshots are immutable: every change replaces them"},
		},
	}
}

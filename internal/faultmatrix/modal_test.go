package faultmatrix_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

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

// modalTarget is Modal, through modalfake: Throttle answers
// RESOURCE_EXHAUSTED with Modal's RPCRetryPolicy detail without acting,
// DropAnswer acts and then answers UNAVAILABLE. The fake has no other
// fault: see cannot.
type modalTarget struct{}

func (modalTarget) name() string { return "modal" }

type modalEnv struct {
	ws *modalfake.Workspace
	// images are the ids of every image a state held: the fake lists no
	// images, so these are the ones looked up.
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

func (e *modalEnv) inject(method string, f fault, n int) {
	switch f {
	case fault429:
		e.ws.Throttle(method, n, modalRetryAfter)
	case faultDropAfter:
		e.ws.DropAnswer(method, n)
	default:
		panic("modalfake cannot inject " + string(f))
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
		// The fake lists no volumes: the matrix's one name (a Modal
		// volume's id in state) is looked up.
		if _, ok := e.ws.Volume(modalVolume); ok {
			live = append(live, modalVolume)
		}
	default:
		// The fake lists no images: those any state held are looked up,
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

// cannot: modalfake injects RESOURCE_EXHAUSTED before acting (Throttle)
// and UNAVAILABLE after acting (DropAnswer) only.
func (modalTarget) cannot(_ string, f fault) string {
	switch f {
	case fault429, faultDropAfter:
		return ""
	case fault500:
		return "modalfake cannot answer INTERNAL (it would need a fault that fails the next calls of a method with a given code, before acting)"
	case fault503:
		return "modalfake cannot answer UNAVAILABLE without acting (DropAnswer acts first; it would need the fault of a given code before acting)"
	case faultDropBefore:
		return "modalfake cannot cut a call before acting (it would need a fault that ends the call with UNAVAILABLE before the handler runs)"
	default:
		return "modalfake cannot hold a call (it would need a per-method delay that ends when the call's context does)"
	}
}

// expect: Modal's SDK retries RESOURCE_EXHAUSTED after the RPCRetryPolicy
// wait and UNAVAILABLE with the same idempotency key, which the fake
// answers with the first call's answer: both converge.
func (modalTarget) expect(kind, op, fault) outcome { return converges }

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

package nothing

import (
	"fmt"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// kitToken is the token of every kit instance's provider block.
const kitToken = "nothing-kit-token"

// Kit is the do-nothing platform under test: the proof that a platform's
// kit and one registry line are all the tests need. The provider does not
// register it (TestOnly): a suite adds its Definition. It makes nothing,
// so it gives no template (the scenarios that need a box skip, saying so)
// and holds no object; the refusal steps derived from its attribute table
// run.
func Kit() platformtest.Kit { return kit{} }

type kit struct{}

func (kit) Name() string { return Name }

func (kit) Start(t *testing.T, opts platformtest.KitOptions) *platformtest.Instance {
	t.Helper()
	plat := &Platform{token: kitToken}
	return &platformtest.Instance{
		Name:  Name,
		Owner: opts.Owner,
		PlatformBlock: func(inner ...string) string {
			return fmt.Sprintf("  nothing {\n    token = %q\n%s  }\n", kitToken, platformtest.InnerLines(inner))
		},
		Env:          []string{TokenEnv + "=" + kitToken},
		Definition:   Definition(),
		TestOnly:     true,
		Hooks:        acctest.NoWaitHooks(),
		Capabilities: plat.Capabilities(),
		OutOfBand:    outOfBand{},
		Objects:      func(*testing.T) []platformtest.Object { return nil },
	}
}

// outOfBand is the platform's console: there is nothing behind it, and
// since the platform makes no object no scenario reaches for one. Each
// hook that would find or make an object fails the test saying so.
type outOfBand struct{}

var _ platformtest.OutOfBand = outOfBand{}

func (outOfBand) SandboxState(t *testing.T, id string) platform.SandboxState {
	t.Fatalf("nothing: no sandbox %s (the platform makes none)", id)
	return ""
}

func (outOfBand) SetSandboxState(t *testing.T, id string, _ platform.SandboxState) {
	t.Fatalf("nothing: no sandbox %s (the platform makes none)", id)
}

func (outOfBand) Delete(t *testing.T, kind, id string) {
	t.Fatalf("nothing: no %s %s (the platform makes none)", kind, id)
}

// Exists: nothing exists on the platform.
func (outOfBand) Exists(*testing.T, string, string) bool { return false }

func (outOfBand) ReadSandboxFile(*testing.T, string, string) (string, bool) { return "", false }

func (outOfBand) ReadVolumeFile(*testing.T, string, string) (string, bool) { return "", false }

func (outOfBand) Make(t *testing.T, f platformtest.Foreign) string {
	t.Fatalf("nothing: cannot make a %s (the platform makes none)", f.Kind)
	return ""
}

func (outOfBand) SetLabels(t *testing.T, kind, id string, _ map[string]string) {
	t.Fatalf("nothing: no %s %s (the platform makes none)", kind, id)
}

// Package live is the kit of a platform's real service: the conformance
// scenarios, and every suite that iterates the registry, run against the
// platform's own API with the user's credentials, as HashiCorp's providers'
// acceptance tests do.
//
// It is opt-in: SBX_ACC_LIVE names the platforms to test live
// (SBX_ACC_LIVE=e2b, or e2b,fly), and the registry (platformtest/kits)
// then yields this kit in place of the platform's fake. The credentials
// come from the environment variables the provider itself reads
// (E2B_API_KEY, DAYTONA_API_KEY, FLY_API_TOKEN and FLY_APP,
// MODAL_TOKEN_ID and MODAL_TOKEN_SECRET); without them the tests skip,
// saying which variable they need. On Fly and Modal, whose templates are
// images the platform pulls, SBX_ACC_LIVE_IMAGE names an image holding the
// quickstart agent (examples/quickstart/agent) at /usr/local/bin/agent.
//
// Every object a live run makes carries an owner starting with Prefix, and
// the suites name objects with it too: `make sweep` removes what a failed
// run left behind, with the orphans command (--owner-prefix, which removes
// only objects carrying the provider's marks and the prefix).
package live

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

const (
	// Switch names the platforms to test against their real service,
	// separated by commas or spaces.
	Switch = "SBX_ACC_LIVE"
	// ImageVar names, for platforms whose templates are images they pull,
	// an image holding the quickstart agent at /usr/local/bin/agent.
	ImageVar = "SBX_ACC_LIVE_IMAGE"
	// Prefix starts the owner of every object a live run makes, and the
	// names the suites give them.
	Prefix = "sbx-live-"
)

// Enabled says SBX_ACC_LIVE names the platform.
func Enabled(name string) bool {
	return slices.Contains(strings.FieldsFunc(os.Getenv(Switch), func(r rune) bool { return r == ',' || r == ' ' }), name)
}

// Or is kit, or its platform's live kit when SBX_ACC_LIVE names the
// platform: the registry wraps each cloud platform's fake kit in it.
func Or(kit platformtest.Kit) platformtest.Kit {
	if !Enabled(kit.Name()) {
		return kit
	}
	p, ok := kit.(platformtest.Profiler)
	if !ok {
		return unprofiled{kit.Name()}
	}
	return Kit(p.Profile(), platform.Hooks{})
}

// IsLive says kit is a live kit.
func IsLive(kit platformtest.Kit) bool {
	_, ok := kit.(liveKit)
	return ok
}

// Kit is the live kit of the platform p profiles, its clients waiting with
// hooks (the zero value: the platform's own waits, as in production).
func Kit(p platformtest.Profile, hooks platform.Hooks) platformtest.Kit {
	return liveKit{profile: p, hooks: hooks}
}

type liveKit struct {
	profile platformtest.Profile
	hooks   platform.Hooks
}

var (
	_ platformtest.OwnerPrefixer = liveKit{}
	_ platformtest.NamePrefixer  = liveKit{}
)

func (k liveKit) Name() string        { return k.profile.Definition.Name }
func (k liveKit) OwnerPrefix() string { return Prefix }
func (k liveKit) NamePrefix() string  { return Prefix }

// Start connects to the real service with the environment's credentials,
// or skips t saying what it needs. Pace is ignored: the service runs at its
// own. Settings go into the platform block as the test chose them.
func (k liveKit) Start(t *testing.T, opts platformtest.KitOptions) *platformtest.Instance {
	t.Helper()
	def := k.profile.Definition
	cfg, err := def.Resolve(nil, os.Getenv)
	if err != nil {
		t.Skipf("%s live (%s=%s): %v", def.Name, Switch, os.Getenv(Switch), err)
	}
	image := os.Getenv(ImageVar)
	if k.profile.ImageTemplates && image == "" {
		t.Skipf("%s live: %s templates are images it pulls; set %s to an image holding the quickstart agent "+
			"(examples/quickstart/agent) at /usr/local/bin/agent that %s can pull", def.Name, def.Title, ImageVar, def.Title)
	}
	cfg.MaxRetries = 3
	cfg.UserAgent = "sbx-live-test"
	cfg.Hooks = k.hooks
	plat, err := def.Configure(t.Context(), cfg)
	if err != nil {
		t.Fatalf("%s live: configuring the client: %v", def.Name, err)
	}
	t.Cleanup(func() { _ = plat.Close() })
	var settings []string
	for name, value := range opts.Settings {
		if value != "" {
			settings = append(settings, fmt.Sprintf("%s = %q", name, value))
		}
	}
	slices.Sort(settings)
	in := k.profile.Instance(t, image)
	in.Owner = opts.Owner
	in.PlatformBlock = func(inner ...string) string {
		// Everything else comes from the environment, as the provider
		// reads it.
		return fmt.Sprintf("  %s {\n%s  }\n", def.Name, platformtest.InnerLines(append(slices.Clone(settings), inner...)))
	}
	in.Env = environment(def)
	in.Hooks = k.hooks
	in.Capabilities = plat.Capabilities()
	in.OutOfBand = &outOfBand{ByClient: platformtest.ByClient{Platform: plat}, plat: plat}
	in.Objects = func(t *testing.T) []platformtest.Object { return objectsOf(t, plat, in.Owner) }
	return in
}

// environment is the environment a CLI subprocess needs to reach the
// service: every variable the platform's settings read that is set.
func environment(def platform.Definition) []string {
	var env []string
	for _, s := range def.Settings {
		for _, name := range s.Env {
			if v, ok := os.LookupEnv(name); ok {
				env = append(env, name+"="+v)
			}
		}
	}
	return env
}

// objectsOf are the objects of owner the platform lists as the provider's
// (its Inventory: kinds that carry no labels there, such as E2B's
// templates and volumes, are not listed).
func objectsOf(t *testing.T, plat platform.Platform, owner string) []platformtest.Object {
	t.Helper()
	inv := plat.Extensions().Inventory
	if inv == nil {
		t.Fatalf("%s live: the platform cannot list the objects the provider made there", plat.Name())
	}
	list, err := inv.ListManaged(context.Background())
	if err != nil {
		t.Fatalf("%s live: listing the objects the provider made: %v", plat.Name(), err)
	}
	var out []platformtest.Object
	for _, o := range list.Objects {
		if o.Owner != owner {
			continue
		}
		out = append(out, platformtest.Object{Kind: o.Kind, ID: o.ID, Name: o.Name, Labels: map[string]string{
			platform.LabelManaged: "true", platform.LabelOwner: o.Owner, platform.LabelCreateToken: o.CreateToken,
		}})
	}
	return out
}

// unprofiled is the live kit of a platform whose fake kit offers no
// Profile: it cannot run live, and says so.
type unprofiled struct{ name string }

func (u unprofiled) Name() string { return u.name }

func (u unprofiled) Start(t *testing.T, _ platformtest.KitOptions) *platformtest.Instance {
	t.Helper()
	t.Fatalf("%s names %s, whose kit offers no Profile to run it live", Switch, u.name)
	return nil
}

package crashtest

import (
	"slices"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/conformance"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
)

// createDelay is how long answers to creates are held back during the
// interrupted apply (the platform acts at once): long enough for the
// signal to land while creates are in flight, short enough for the
// package to run in a few minutes.
const createDelay = 1500 * time.Millisecond

// lostAnswers is how many sandbox create answers each fake loses (the
// object made, the connection dropped) in the interrupted apply, one
// volume create answer besides: the provider must find those objects
// again by their create tokens.
const lostAnswers = 2

// site is one platform started for one run: the kit's instance.
type site struct {
	*platformtest.Instance
	// foreign is the id of another owner's volume, made out of band: it
	// is no object of the run, and must outlast it.
	foreign string
}

// start starts kit's instance for t, owned by owner; a platform that
// makes no template (the do-nothing platform) cannot hold the run's boxes:
// t is skipped saying so.
func start(t *testing.T, kit platformtest.Kit, owner string) *site {
	t.Helper()
	in := platformtest.Start(t, kit, platformtest.KitOptions{Owner: owner})
	if in.TemplateConfig == nil {
		t.Skipf("%s makes no template (its kit's TemplateConfig is nil), so it holds none of the run's boxes: nothing can be interrupted", in.Name)
	}
	return &site{Instance: in}
}

// provider is the run's provider block.
func (s *site) provider() string { return s.ProviderBlock() }

// template is the run's sbx_template "t", named owner.
func (s *site) template() string {
	return "resource \"sbx_template\" \"t\" {\n" + s.TemplateConfig(s.Owner) + "}\n"
}

// objects are the run's live objects on the platform: all it lists but
// the other owner's volume.
func (s *site) objects(t *testing.T) []platformtest.Object {
	all := s.Objects(t)
	return slices.DeleteFunc(all, func(o platformtest.Object) bool { return o.ID == s.foreign })
}

// checkForeignKept fails t unless the platform still holds the other
// owner's volume.
func (s *site) checkForeignKept(t *testing.T) {
	t.Helper()
	for _, o := range s.Objects(t) {
		if o.ID == s.foreign {
			return
		}
	}
	t.Errorf("the other owner's volume %s is gone: the run touched an object that was not its own", s.foreign)
}

// labelled says the object carries the provider's marks (its owner), so
// the orphans command can check it; the others it reports as unchecked.
func labelled(o platformtest.Object) bool { return o.Labels[platform.LabelOwner] != "" }

// tokenOf is the create token among an object's labels ("" where it has none).
func tokenOf(o platformtest.Object) string { return o.Labels[platform.LabelCreateToken] }

// templatesHeld says the platform holds the run's template as an object
// (not where a template is a record in state only: Fly).
func (s *site) templatesHeld() bool { return !s.TemplatesInStateOnly }

// slow holds back the answers to the platform's volume and sandbox creates
// (the platform acts at once) and loses the answers of a few, for the
// interrupted apply. Docker's engine takes no faults: its own creates (a
// container made, then started) are slow enough for the signal to land
// among them. The faults queued are used up by the interrupted apply or
// the next; the held answers delay that one by a few seconds at most.
func (s *site) slow(t *testing.T) {
	t.Helper()
	if s.Faults == nil {
		return
	}
	for kind, lost := range map[string]int{platformtest.KindVolume: 1, platformtest.KindSandbox: lostAnswers} {
		k, ok := s.FaultPlan.Target(kind)
		route := k.Routes[platformtest.OpCreate]
		if !ok || route == "" {
			t.Fatalf("%s: the fault plan names no %s create", s.Name, kind)
		}
		s.Faults.Inject(route, platformtest.Fault{Kind: platformtest.FaultDropAfter, Times: lost})
		s.Faults.Inject(route, platformtest.Fault{Kind: platformtest.FaultSlowAnswer, Times: boxes, Latency: createDelay})
	}
}

// orphansInProcess says the orphans command must run in the test process
// with the kit's Definition: the provider binary's registered definition
// cannot reach the instance from the environment alone (a setting the kit
// reads from a variable the production definition does not: Fly's
// api_url, Modal's app), or the platform is not registered at all.
func (s *site) orphansInProcess() bool {
	for _, def := range platforms.All() {
		if def.Name != s.Name {
			continue
		}
		if len(def.Settings) != len(s.Definition.Settings) {
			return true
		}
		for i := range def.Settings {
			if !slices.Equal(def.Settings[i].Env, s.Definition.Settings[i].Env) {
				return true
			}
		}
		return false
	}
	return true
}

// orphansPlatforms are the platforms of an in-process orphans command.
func (s *site) orphansPlatforms() []platform.Definition { return conformance.Definitions(s.Instance) }

package live

import (
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// profiled is a fake kit offering a profile; bare offers none.
type profiled struct{ name string }

func (k profiled) Name() string { return k.name }
func (k profiled) Start(t *testing.T, _ platformtest.KitOptions) *platformtest.Instance {
	t.Fatal("the fake kit must not start when its platform runs live")
	return nil
}
func (k profiled) Profile() platformtest.Profile {
	return platformtest.Profile{Definition: platform.Definition{Name: k.name, Title: k.name, Settings: []platform.Setting{
		{Name: "api_key", Env: []string{"LIVE_TEST_API_KEY"}, Required: true, Sensitive: true, Hint: "Set it."},
	}}}
}

type bare struct{ profiled }

func (bare) Profile() {}

// TestOr: SBX_ACC_LIVE (commas or spaces between names) swaps a platform's
// fake kit for its live kit, and only the platforms it names.
func TestOr(t *testing.T) {
	cases := []struct {
		env      string
		name     string
		wantLive bool
	}{
		{"", "e2b", false},
		{"e2b", "e2b", true},
		{"fly,e2b", "e2b", true},
		{"fly e2b", "e2b", true},
		{"e2bx", "e2b", false},
		{"fly", "e2b", false},
	}
	for _, c := range cases {
		t.Run(c.env+"/"+c.name, func(t *testing.T) {
			t.Setenv(Switch, c.env)
			kit := Or(profiled{c.name})
			if IsLive(kit) != c.wantLive || kit.Name() != c.name {
				t.Errorf("%s=%q: Or(%s) is %T named %s, want live %v", Switch, c.env, c.name, kit, kit.Name(), c.wantLive)
			}
		})
	}
}

// TestStartSkipsWithoutCredentials: a live platform without its
// credentials skips, naming the variable; an image platform without
// SBX_ACC_LIVE_IMAGE skips naming it; a kit with no profile fails.
func TestStartSkipsWithoutCredentials(t *testing.T) {
	t.Setenv(Switch, "p")
	t.Setenv("LIVE_TEST_API_KEY", "")
	t.Setenv(ImageVar, "")
	var skipped bool
	t.Run("no key", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Or(profiled{"p"}).Start(t, platformtest.KitOptions{Owner: Prefix + "x"})
	})
	if !skipped {
		t.Error("without LIVE_TEST_API_KEY the live kit must skip")
	}

	t.Setenv("LIVE_TEST_API_KEY", "k")
	prof := profiled{"p"}.Profile()
	prof.ImageTemplates = true
	skipped = false
	t.Run("no image", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Kit(prof, platform.Hooks{}).Start(t, platformtest.KitOptions{Owner: Prefix + "x"})
	})
	if !skipped {
		t.Errorf("without %s a platform whose templates are images must skip", ImageVar)
	}
	if _, ok := Or(bare{profiled{"p"}}).(unprofiled); !ok {
		t.Error("a live platform whose kit offers no profile must be a kit that fails saying so")
	}
}

package platformtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// savedPlanCase is one journey of CI applying a saved plan after the
// world changed: base is applied, planned is planned with -out, change
// acts on the platform behind Terraform's back, and the saved plan is
// applied.
type savedPlanCase struct {
	name string
	// lacks says what the platform (or its kit) lacks for the case (""
	// when it has it).
	lacks         func(h harness) string
	base, planned func(r run) string
	// change acts out of band on the objects of base; ids are the state's
	// ids by resource type. It returns the ids of the objects it made,
	// which must survive the applies and the destroy (nil: none).
	change func(t *testing.T, h harness, ids func(typ string) string) (foreign []string)
}

// savedPlanCases: a box deleted or paused, a volume deleted, a snapshot
// deleted, a template changed by hand, each under a saved plan that needs
// it.
var savedPlanCases = []savedPlanCase{
	{
		name:  "sandbox_deleted",
		lacks: lacksOtherState,
		base:  func(r run) string { return r.config(r.template(), r.sandbox("s")) },
		planned: func(r run) string {
			return r.config(r.template(), r.sandbox("s", "  state = "+fmt.Sprintf("%q", otherState(r.h.Capabilities))))
		},
		change: func(t *testing.T, h harness, ids func(string) string) []string {
			h.OutOfBand.Delete(t, KindSandbox, ids("sbx_sandbox"))
			return nil
		},
	},
	{
		name:  "sandbox_paused",
		lacks: lacksOtherState,
		base:  func(r run) string { return r.config(r.template(), r.sandbox("s")) },
		planned: func(r run) string {
			return r.config(r.template(), r.sandbox("s", `  env = { SAVED = "plan" }`))
		},
		change: func(t *testing.T, h harness, ids func(string) string) []string {
			h.OutOfBand.SetSandboxState(t, ids("sbx_sandbox"), platform.SandboxState(otherState(h.Capabilities)))
			return nil
		},
	},
	{
		name: "volume_deleted",
		lacks: func(h harness) string {
			if !h.Capabilities.Accepts(platform.AttrSandboxVolumeMount) {
				return "volume mounts (sandbox.volume_mount)"
			}
			return ""
		},
		base: func(r run) string { return r.config(r.template(), r.volume("v")) },
		planned: func(r run) string {
			return r.config(r.template(), r.volume("v"),
				r.sandbox("s", "  volume_mount {\n    volume_id = sbx_volume.v.id\n    path      = \"/data\"\n  }"))
		},
		change: func(t *testing.T, h harness, ids func(string) string) []string {
			h.OutOfBand.Delete(t, KindVolume, ids("sbx_volume"))
			return nil
		},
	},
	{
		name: "snapshot_deleted",
		lacks: func(h harness) string {
			c := h.Capabilities
			kind := platform.SnapshotKind(run{h: h}.sandboxSnapshotKind())
			if !c.Accepts(platform.AttrSnapshotSandboxID) || !c.Accepts(platform.AttrSandboxFromSnapshotID) ||
				!c.SnapshotDelete || slices.Contains(c.SnapshotUndeletableKinds, kind) {
				return "sandbox snapshots that can be deleted and restored (SandboxSnapshot, SandboxFromSnapshot, SnapshotDelete)"
			}
			return ""
		},
		base: func(r run) string {
			return r.config(r.template(), r.sandbox("s"), r.snapshotOf("snap", "sbx_sandbox.s"))
		},
		planned: func(r run) string {
			return r.config(r.template(), r.sandbox("s"), r.snapshotOf("snap", "sbx_sandbox.s"),
				`resource "sbx_sandbox" "r" {
  name             = "`+r.name+`-r"
  from_snapshot_id = sbx_snapshot.snap.id
}
`)
		},
		change: func(t *testing.T, h harness, ids func(string) string) []string {
			h.OutOfBand.Delete(t, KindSnapshot, ids("sbx_snapshot"))
			return nil
		},
	},
	{
		// A new box planned from a template someone then changed by hand:
		// no box may start from what was put under the template's id (the
		// saved apply fails naming it, or starts the box from the
		// provider's build); the next plan rebuilds the template, and the
		// hand-made object is never removed.
		name: "template_changed",
		lacks: func(h harness) string {
			if _, ok := h.OutOfBand.(TemplateChanger); !ok {
				return "changing a template by hand (the kit's OutOfBand is no TemplateChanger)"
			}
			return ""
		},
		base: func(r run) string { return r.config(r.template(), r.sandbox("s")) },
		planned: func(r run) string {
			return r.config(r.template(), r.sandbox("s"), r.sandbox("s2"))
		},
		change: func(t *testing.T, h harness, ids func(string) string) []string {
			changer, ok := h.OutOfBand.(TemplateChanger)
			if !ok {
				t.Fatal("the kit's OutOfBand is no TemplateChanger") // lacks skipped the case
			}
			return []string{changer.ChangeTemplate(t, ids("sbx_template"))}
		},
	},
}

// otherState is a sandbox state besides running the platform has.
func otherState(c platform.Capabilities) string {
	if c.AcceptsValue(platform.AttrSandboxState, "paused") {
		return "paused"
	}
	return "stopped"
}

func lacksOtherState(h harness) string {
	c := h.Capabilities
	if !c.AcceptsValue(platform.AttrSandboxState, "paused") && !c.AcceptsValue(platform.AttrSandboxState, "stopped") {
		return "pausing or stopping sandboxes"
	}
	return ""
}

// brokenApply are what an apply says when the provider, not the world,
// is at fault: a crash, a broken promise about a planned value, a
// diagnostic the framework adds for a provider bug.
var brokenApply = []string{
	"panic:", "Plugin did not respond", "Provider produced inconsistent", "produced an unexpected new value",
	"This is always an error in the provider", "This is a bug in the provider",
}

// testSavedPlan: CI applies a saved plan after the platform changed under
// it. The saved apply either converges or fails with an error of the
// provider's own making the user can act on (never a crash or an
// inconsistent result); the next apply converges, the plan after it is
// empty, and destroy leaves nothing on the platform.
func testSavedPlan(t *testing.T, h harness) {
	for _, c := range savedPlanCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // each case has names of its own
			if why := c.lacks(h); why != "" {
				needs(t, false, why)
			}
			r := newRun(h)
			w := acctest.NewOtherStateServing(t, h.ProviderFactories["sbx"])
			w.WriteFile("main.tf", c.base(r))
			w.MustRun("init", "-input=false", "-no-color")
			w.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
			ids := func(typ string) string {
				got := w.StateIDs(typ)
				if len(got) != 1 {
					t.Fatalf("the state holds %d %s, want 1", len(got), typ)
				}
				return got[0]
			}
			w.WriteFile("main.tf", c.planned(r))
			w.MustRun("plan", "-out=saved.tfplan", "-input=false", "-no-color")
			foreign := c.change(t, h, ids)

			out, err := w.Run("apply", "-input=false", "-no-color", "saved.tfplan")
			for _, broken := range brokenApply {
				if strings.Contains(out, broken) {
					t.Fatalf("the saved plan's apply after the change says %q: the provider is at fault, not the change:\n%s", broken, out)
				}
			}
			if err != nil && !strings.Contains(out, "Error: ") {
				t.Fatalf("the saved plan's apply failed (%v) without an error saying why:\n%s", err, out)
			}
			if err != nil {
				t.Logf("the saved plan's apply after the change failed, as it may:\n%s", out[strings.Index(out, "Error: "):])
			} else {
				t.Logf("the saved plan's apply after the change converged")
			}

			if out, err := w.Run("apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
				t.Fatalf("the apply after the saved plan's did not converge (%v):\n%s", err, out)
			}
			if out, err := w.Run("plan", "-detailed-exitcode", "-input=false", "-no-color"); err != nil {
				t.Fatalf("the plan after it is not empty (%v):\n%s", err, out)
			}
			held := map[string][]string{}
			for typ, kind := range map[string]string{"sbx_sandbox": KindSandbox, "sbx_volume": KindVolume, "sbx_snapshot": KindSnapshot} {
				held[kind] = w.StateIDs(typ)
			}
			w.MustRun("destroy", "-auto-approve", "-input=false", "-no-color")
			for kind, list := range held {
				for _, id := range list {
					if h.OutOfBand.Exists(t, kind, id) {
						t.Errorf("the %s %s is still on the platform after destroy", kind, id)
					}
				}
			}
			for _, id := range foreign {
				if !h.OutOfBand.Exists(t, KindTemplate, id) {
					t.Errorf("%s, made by hand, is gone: the provider removed what it did not make", id)
				}
			}
		})
	}
}

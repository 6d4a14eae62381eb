package modalacc_test

import (
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// A box made outside the provider (Modal's own SDK or CLI) carries none of
// the tags where the provider records what the SDK does not report. Its
// name and image are read from its app's list (SandboxInfo), the image as
// its template, so a configuration naming them plans no replacement; its
// sizes and memory snapshot setting, which Modal reports for no box, are
// taken from the configuration in place, with a warning: the apply records
// them and sends nothing (Modal changes nothing of a live box but its
// tags); after the apply the next plan is empty, and destroy deletes the
// box.
func TestAccModalSandboxImportForeign(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	ws, providerConfig := modalAccWorkspace(t)
	base := providerConfig + modalTemplateHCL("foreign-tpl")
	s := acctest.NewOtherStateServing(t, modalFactories(ws)["sbx"])
	s.Apply(base)
	tpl := s.Attr("sbx_template.t", "id")
	id, err := ws.CreateSandbox(modalAccApp, "by-hand", tpl)
	if err != nil {
		t.Fatal(err)
	}

	s.WriteFile("main.tf", base+`
resource "sbx_sandbox" "s" {
  name        = "by-hand"
  template_id = sbx_template.t.id
  cpu_count   = 1
  memory_mb   = 1024
}
`)
	s.MustRun("import", "-input=false", "-no-color", "sbx_sandbox.s", id)
	plan := strings.Join(strings.Fields(s.MustRun("plan", "-input=false", "-no-color")), " ")
	for _, want := range []string{
		"sbx_sandbox.s will be updated in-place",
		"Warning: Sandbox cpu_count, memory_mb, memory_snapshots taken from the configuration",
		"modal does not report the cpu_count, memory_mb, memory_snapshots of imported sandbox " + id,
		"Plan: 0 to add, 1 to change, 0 to destroy.",
	} {
		if !strings.Contains(plan, want) {
			t.Errorf("the plan after the import does not say %q:\n%s", want, plan)
		}
	}
	s.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	if out := s.MustRun("plan", "-input=false", "-no-color", "-detailed-exitcode"); !strings.Contains(out, "No changes.") {
		t.Errorf("the plan after the apply is not empty:\n%s", out)
	}
	if s.Attr("sbx_sandbox.s", "id") != id {
		t.Errorf("the box was replaced: id %s, want %s", s.Attr("sbx_sandbox.s", "id"), id)
	}
	if err := modalOneLive(ws)(nil); err != nil {
		t.Error(err)
	}

	s.MustRun("destroy", "-auto-approve", "-input=false", "-no-color")
	if err := modalHoldsNothing(ws, []*string{&tpl})(nil); err != nil {
		t.Error(err)
	}
}

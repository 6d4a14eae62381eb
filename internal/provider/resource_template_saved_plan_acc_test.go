package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// TestAccTemplate_savedPlanContextChanged: a saved plan applied after a
// file of context_dir changed builds nothing, for a create and for a
// rebuild: the apply fails naming context_hash, no image is tagged with
// the template's name (create) and the template keeps its build (rebuild);
// a new plan then builds the new files.
//
// The apply fails on Terraform's own check of the plan it makes again at
// apply against the saved one ("Provider produced inconsistent final
// plan"): the provider is not shown the saved plan there, so it cannot say
// more (resource_template_context_guard.go). The provider's own error, for
// files changed after that last plan, is TestTemplateApplyContextChanged.
func TestAccTemplate_savedPlanContextChanged(t *testing.T) {
	acctest.RequireDocker(t)
	t.Parallel()
	name := sdkacctest.RandomWithPrefix("tf-acc-savedplan")
	id := "sbx/" + name + ":latest"
	s := acctest.NewOtherState(t, New("test"))
	dir := t.TempDir()
	write := func(content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("one\n")
	s.WriteFile("main.tf", fmt.Sprintf(`
resource "sbx_template" "t" {
  name        = %q
  context_dir = %q
  dockerfile  = "FROM scratch\nCOPY f /f\n"
}
`, name, dir))
	cli := acctest.DockerClient(t)
	applyChanged := func(what string) string {
		t.Helper()
		s.MustRun("plan", "-out=tfplan", "-input=false", "-no-color")
		write(what)
		out, err := s.Run("apply", "-input=false", "-no-color", "tfplan")
		if err == nil {
			t.Fatalf("a saved plan applied after context_dir changed succeeded:\n%s", out)
		}
		if !strings.Contains(out, "sbx_template.t") || !strings.Contains(out, "context_hash") {
			t.Fatalf("the failed apply does not name sbx_template.t's context_hash:\n%s", out)
		}
		return out
	}

	// Create.
	applyChanged("two\n")
	if _, err := cli.ImageInspect(context.Background(), id); err == nil {
		t.Fatalf("the failed create tagged %s", id)
	}
	if ids := s.StateIDs("sbx_template"); len(ids) != 0 {
		t.Fatalf("the failed create saved %v", ids)
	}
	s.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	build := s.Attr("sbx_template.t", "build_id")

	// Rebuild.
	write("three\n")
	applyChanged("four\n")
	if got := s.Attr("sbx_template.t", "build_id"); got != build {
		t.Fatalf("the failed rebuild changed build_id %s to %s", build, got)
	}
	img, err := cli.ImageInspect(context.Background(), id)
	if err != nil || img.ID != build {
		t.Fatalf("%s is %v (%v) after the failed rebuild, want the build %s", id, img.ID, err, build)
	}
	s.MustRun("apply", "-auto-approve", "-input=false", "-no-color")
	if got := s.Attr("sbx_template.t", "build_id"); got == build {
		t.Fatalf("a new plan after the change did not rebuild: build_id still %s", got)
	}
	s.MustRun("plan", "-detailed-exitcode", "-input=false", "-no-color")
}

package badinput_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// row is one bad input: a configuration the provider must refuse at plan
// time (or an id it must refuse at import) with an error matching want.
type row struct {
	category string
	name     string
	// platform is the platform the row runs against (default docker).
	platform string
	// provider are lines of the provider block beside the platform's block;
	// inner are lines inside the platform's block.
	provider, inner []string
	// block, when set, is the platform's block in place of the target's.
	block string
	// config is the row's resources and data sources.
	config string
	// want are the error's parts, in order, as they read (a space matches
	// any run of whitespace, since Terraform wraps its messages): the
	// attribute, the bad value, and what is allowed instead.
	want []string
	// importAddr and importID make the row a terraform import of importID
	// into importAddr (declared in config) instead of a plan.
	importAddr, importID string
	// setup, when set, makes what the row needs on the platform and
	// returns the id to import (replacing importID).
	setup func(t *testing.T, tg *target) string
	// engine: the Docker row gets past validation, so it needs an engine.
	engine bool
}

// The templates the rows' sandboxes start from: ids the plan takes as
// they are, so a row plans one sandbox and nothing else.
var templateIDs = map[string]string{
	docker:  "sbx/badinput:latest",
	e2b:     "badinput-tpl",
	daytona: "badinput-snap",
	fly:     "badinput-tpl",
	modal:   "im-0123456789abcdefghijkl",
	nothing: "nothing-tpl",
}

// box is sbx_sandbox.s on platform p, started from its template, with body.
func box(p, body string) string {
	return fmt.Sprintf("resource \"sbx_sandbox\" \"s\" {\n  template_id = %q\n%s\n}\n", templateIDs[p], indent(body))
}

// named is sbx_sandbox.s named name on platform p.
func named(p, name string) string {
	return box(p, fmt.Sprintf("name = %q", name))
}

// vol is sbx_volume.v with body.
func vol(body string) string {
	return "resource \"sbx_volume\" \"v\" {\n" + indent(body) + "\n}\n"
}

// tpl is sbx_template.t with body.
func tpl(body string) string {
	return "resource \"sbx_template\" \"t\" {\n" + indent(body) + "\n}\n"
}

// snap is sbx_snapshot.n with body.
func snap(body string) string {
	return "resource \"sbx_snapshot\" \"n\" {\n" + indent(body) + "\n}\n"
}

// dockerfile is a template named name built from the Dockerfile text.
func dockerfile(name, text string) string {
	return tpl(fmt.Sprintf("name       = %q\ndockerfile = <<-EOT\n%sEOT", name, indent(text)))
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "  " + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// mount is a volume_mount block.
func mount(volumeID, path string, extra ...string) string {
	return fmt.Sprintf("volume_mount {\n  volume_id = %q\n  path      = %q\n%s}", volumeID, path, indent(strings.Join(extra, "\n")))
}

// TestBadInputs runs every row: the plan (or import) fails with the
// expected error, and the platform received no create and holds nothing.
func TestBadInputs(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	rows := badRows()
	categories, platforms := map[string]int{}, map[string]int{}
	for _, r := range rows {
		categories[r.category]++
		if r.platform == "" {
			r.platform = docker
		}
		platforms[r.platform]++
	}
	if len(rows) < 60 {
		t.Errorf("the table has %d rows, want at least 60", len(rows))
	}
	for _, e := range kits.All() {
		if p := e.Kit.Name(); platforms[p] < 3 {
			t.Errorf("the table has %d rows on %s, want at least 3 on every platform of the registry", platforms[p], p)
		}
	}
	t.Logf("%d rows; by category: %v; by platform: %v", len(rows), categories, platforms)
	seen := map[string]bool{}
	for _, r := range rows {
		id := r.category + "/" + r.name
		if seen[id] {
			t.Fatalf("two rows named %s", id)
		}
		seen[id] = true
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			runRow(t, r)
		})
	}
}

func runRow(t *testing.T, r row) {
	p := r.platform
	if p == "" {
		p = docker
	}
	if r.engine {
		acctest.RequireDocker(t)
	}
	tg := newTarget(t, p)
	lines := append([]string{fmt.Sprintf("owner = %q", owner(t))}, r.provider...)
	pb := tg.PlatformBlock(r.inner...)
	if r.block != "" {
		pb = r.block
	}
	config := providerBlock(pb, lines) + r.config
	parts := r.want
	if r.setup != nil {
		r.importID = r.setup(t, tg)
		tg.begin(t)
		parts = make([]string, len(r.want))
		for i, p := range r.want {
			parts[i] = strings.ReplaceAll(p, "{id}", r.importID)
		}
	}
	want := wantPattern(parts)
	if want.MatchString(config) {
		t.Fatalf("the expected error %q matches the configuration itself: it would pass without the check", want)
	}
	step := resource.TestStep{
		Config:      config,
		PlanOnly:    true,
		ExpectError: want,
	}
	if r.importAddr != "" {
		step = resource.TestStep{
			Config:       config,
			ResourceName: r.importAddr,
			ImportState:  true,
			// A function, not ImportStateId: an empty ImportStateId means
			// "the id in state", and a row may import the empty id.
			ImportStateIdFunc: func(*terraform.State) (string, error) { return r.importID, nil },
			ExpectError:       want,
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: tg.factories,
		Steps:                    []resource.TestStep{step},
	})
	if p != docker || r.engine {
		if made := tg.made(t); len(made) > 0 {
			t.Errorf("the refused %s reached the platform: %s", kindOf(r), strings.Join(made, "; "))
		}
	}
}

// wantPattern matches parts in order, anything between them (newlines
// too), and any run of whitespace for a space.
func wantPattern(parts []string) *regexp.Regexp {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = regexp.QuoteMeta(p)
	}
	return acctest.ErrorPattern("(?s)" + strings.Join(quoted, ".*"))
}

func kindOf(r row) string {
	if r.importAddr != "" {
		return "import"
	}
	return "plan"
}

// missingDir is a build context directory that does not exist.
var missingDir = filepath.Join(os.TempDir(), "sbx-badinput-no-such-context")

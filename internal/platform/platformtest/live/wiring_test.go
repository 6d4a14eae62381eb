package live_test

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/conformance"
	"github.com/sbxhq/terraform-provider-sbx/internal/orphans"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/live"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
)

// TestAccLiveKitWiring proves the live kit's wiring with a fake standing in
// for Daytona's service at the URL the environment gives, as a user's
// account would be reached: with SBX_ACC_LIVE naming the platform, the
// registry yields the live kit for it (and fakes for the rest), the kit
// reaches the service from the environment alone, two conformance
// scenarios pass through it, and `make sweep`'s command removes what a run
// left behind (a box the state forgot) and nothing of another owner.
//
// The live kit waits as the provider does in production (no test hooks),
// so the fake's transitional states pass at the clients' own pace.
func TestAccLiveKitWiring(t *testing.T) {
	acctest.RequireTerraform(t)
	const key = "dtn_live_wiring_key"
	fake := daytonafake.New(t, daytonafake.Options{APIKey: key})
	t.Setenv(live.Switch, "daytona")
	t.Setenv("DAYTONA_API_KEY", key)
	t.Setenv("DAYTONA_API_URL", fake.URL())
	t.Setenv("DAYTONA_ORGANIZATION_ID", fake.OrganizationID())

	var kit platformtest.Kit
	for _, e := range kits.All() {
		switch {
		case e.Kit.Name() == "daytona":
			kit = e.Kit
		case live.IsLive(e.Kit):
			t.Errorf("%s=daytona, and the registry yields the live kit for %s too", live.Switch, e.Kit.Name())
		}
	}
	if kit == nil || !live.IsLive(kit) {
		t.Fatalf("%s=daytona, and the registry yields %T for daytona, not the live kit", live.Switch, kit)
	}
	in := platformtest.Start(t, kit, platformtest.KitOptions{})
	if !strings.HasPrefix(in.Owner, live.Prefix) || in.NamePrefix != live.Prefix {
		t.Fatalf("owner %q and name prefix %q: a live run's must start with %q", in.Owner, in.NamePrefix, live.Prefix)
	}
	if strings.Contains(in.ProviderBlock(), key) || strings.Contains(in.ProviderBlock(), fake.URL()) {
		t.Fatalf("the live provider block sets what the environment gives:\n%s", in.ProviderBlock())
	}
	factories := conformance.Factories(in)
	platformtest.RunOnly(t, in, factories, "lifecycle", "import")

	// A run that failed left a box and its template behind: the state
	// forgot them (removed blocks), the service still has them.
	var boxID, tplID string
	name := live.Prefix + "left"
	tpl := "resource \"sbx_template\" \"t\" {\n" + in.TemplateConfig(name) + "}\n"
	box := "resource \"sbx_sandbox\" \"s\" {\n  name = \"" + name + "\"\n  template_id = sbx_template.t.id\n}\n"
	forget := "removed {\n  from = sbx_sandbox.s\n  lifecycle {\n    destroy = false\n  }\n}\n" +
		"removed {\n  from = sbx_template.t\n  lifecycle {\n    destroy = false\n  }\n}\n"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{
			{Config: in.ProviderBlock() + tpl + box, Check: resource.ComposeAggregateTestCheckFunc(
				captureAttr("sbx_sandbox.s", "id", &boxID), captureAttr("sbx_template.t", "id", &tplID))},
			{Config: in.ProviderBlock() + forget},
		},
	})
	if !in.OutOfBand.Exists(t, platformtest.KindSandbox, boxID) || !in.OutOfBand.Exists(t, platformtest.KindTemplate, tplID) {
		t.Fatalf("the forgotten box %s and template %s must be left on the service", boxID, tplID)
	}
	// Another owner's box on the same account (another team's provider
	// made it, from Daytona's default snapshot) stays.
	var other struct {
		ID string `json:"id"`
	}
	platformtest.PostJSON(t, fake.URL()+"/sandbox", http.Header{"Authorization": {"Bearer " + key}},
		map[string]any{"labels": map[string]string{platform.LabelManaged: "true", platform.LabelOwner: "someone-else"}}, &other)

	state := filepath.Join(t.TempDir(), "empty.tfstate")
	if err := os.WriteFile(state, []byte(`{"version":4,"resources":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := orphans.Main(context.Background(), []string{"--platform", "daytona", "--owner-prefix", live.Prefix, "--all-states", "--delete", state},
		orphans.Env{Stdout: &stdout, Stderr: &stderr, Getenv: os.Getenv, Version: "test", Platforms: platforms.All()})
	if code != orphans.ExitOrphans {
		t.Fatalf("sweep: exit %d, want %d (orphans found and removed)\nstdout:\n%s\nstderr:\n%s", code, orphans.ExitOrphans, stdout.String(), stderr.String())
	}
	if in.OutOfBand.Exists(t, platformtest.KindSandbox, boxID) {
		t.Errorf("after the sweep the box %s is still there:\n%s", boxID, stdout.String())
	}
	// Daytona's templates carry no labels: the sweep cannot tell the
	// provider made one, says so, and leaves it (its name starts with the
	// prefix, for a person to find).
	if !strings.Contains(stdout.String(), "template: Daytona snapshots (templates) carry no labels") {
		t.Errorf("the sweep's report does not say Daytona's templates were not checked:\n%s", stdout.String())
	}
	in.OutOfBand.Delete(t, platformtest.KindTemplate, tplID)
	if !in.OutOfBand.Exists(t, platformtest.KindSandbox, other.ID) {
		t.Errorf("the sweep removed box %s of another owner:\n%s", other.ID, stdout.String())
	}
}

// captureAttr copies an attribute of a resource in state into *dst.
func captureAttr(res, attr string, dst *string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(res, attr, func(v string) error {
		*dst = v
		return nil
	})
}

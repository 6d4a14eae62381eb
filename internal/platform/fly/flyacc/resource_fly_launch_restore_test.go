package flyacc_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// Issue 23 items 1 to 5 through the terraform CLI, on the fake's slow
// default (Polls 3: each transitional state is read twice).

const flyStartRoute = "POST /apps/{app_name}/machines/{machine_id}/start"

// flyNoStarts checks that the provider sent no POST .../start: a running
// machine is launched by its create, and a start of a launching machine is
// refused by Fly (412 "machine still active, refusing to start").
func flyNoStarts(fake *flyfake.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := fake.Requests(flyStartRoute); n != 0 {
			return fmt.Errorf("the provider sent %d POST .../start; a create launches the machine itself", n)
		}
		return nil
	}
}

// flyMetadata checks a machine's metadata key.
func flyMetadata(fake *flyfake.Server, addr, key, want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		m, err := flyResMachine(s, fake, addr)
		if err != nil {
			return err
		}
		if got := m.Metadata[key]; got != want {
			return fmt.Errorf("machine %s: metadata %s = %q, want %q", m.ID, key, got, want)
		}
		return nil
	}
}

// A running box is created by a create that launches it: the provider
// waits for the launch, never POSTs /start, and the next plan is empty (it
// used to start the launching machine, get Fly's 412 and taint it). A box
// created stopped is made with skip_launch, rests "created", reads stopped,
// and is started in place later.
func TestAccFlySandboxCreateWaitsForTheLaunch(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{Polls: 3})
	box := func(name, state string) string {
		return fmt.Sprintf("resource \"sbx_sandbox\" %q {\n  name        = %q\n  template_id = sbx_template.t.id\n  state       = %q\n}\n", name, name, state)
	}
	base := cfg + flyTemplateHCL("launch-tpl")
	var stoppedID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:           base + box("running", "running") + box("resting", "stopped"),
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check: resource.ComposeAggregateTestCheckFunc(
					flyNoStarts(fake),
					resource.TestCheckResourceAttr("sbx_sandbox.running", "status", "running"),
					flyResMachineState(fake, "sbx_sandbox.running", flyfake.StateStarted),
					flyMetadata(fake, "sbx_sandbox.running", "sbx.terraform.launch", "launched"),
					resource.TestCheckResourceAttr("sbx_sandbox.resting", "status", "stopped"),
					flyResMachineState(fake, "sbx_sandbox.resting", flyfake.StateCreated),
					flyMetadata(fake, "sbx_sandbox.resting", "sbx.terraform.launch", "skipped"),
					acctest.CaptureAttr("sbx_sandbox.resting", "id", &stoppedID),
				),
			},
			{
				Config:           base + box("running", "running") + box("resting", "running"),
				ConfigPlanChecks: flyResInPlace("sbx_sandbox.resting"),
				Check: resource.ComposeAggregateTestCheckFunc(
					flyResSameID("sbx_sandbox.resting", &stoppedID),
					flyResMachineState(fake, "sbx_sandbox.resting", flyfake.StateStarted),
					resource.TestCheckResourceAttr("sbx_sandbox.resting", "status", "running"),
				),
			},
		},
	})
}

// flyVolumeSnapHCL is a 3 GB volume and a snapshot of it.
const flyVolumeSnapHCL = `
resource "sbx_volume" "v" {
  name    = "restore_src"
  size_gb = 3
}

resource "sbx_snapshot" "s" {
  volume_id = sbx_volume.v.id
}
`

// flyRestoredSize checks the fake's size of the volume at addr.
func flyRestoredSize(fake *flyfake.Server, addr string, want int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		v, err := flyResVolume(s, fake, addr)
		if err != nil {
			return err
		}
		if v.SizeGB != want || v.RestoredFrom == "" {
			return fmt.Errorf("volume %s is %d GB, restored from %q; want %d GB restored from a snapshot", v.ID, v.SizeGB, v.RestoredFrom, want)
		}
		return nil
	}
}

// A restore without size_gb asks Fly for the source volume's size in GB
// (Fly reports the snapshot's volume_size in bytes; the provider used to
// send those bytes as size_gb, which Fly refuses); a size_gb below the
// source's, with the snapshot known, is a plan-time error.
func TestAccFlyVolumeRestoreSizeInGB(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{Polls: 3})
	restore := func(size string) string {
		return fmt.Sprintf("resource \"sbx_volume\" \"r\" {\n  name             = \"restored\"\n  from_snapshot_id = sbx_snapshot.s.id\n%s}\n", size)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:           cfg + flyVolumeSnapHCL + restore(""),
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check:            flyRestoredSize(fake, "sbx_volume.r", 3),
			},
			{
				Config:      cfg + flyVolumeSnapHCL + restore("") + "resource \"sbx_volume\" \"small\" {\n  name             = \"small\"\n  from_snapshot_id = sbx_snapshot.s.id\n  size_gb          = 2\n}\n",
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Restore smaller than the snapshot.s volume.*size_gb = 2.*3\s+GB volume`),
			},
		},
	})
}

// A restore from an on-demand snapshot Fly has not finished (waiting, then
// running) waits for it to be created, rather than asking Fly for a
// restore it refuses.
func TestAccFlyVolumeRestoreWaitsForTheSnapshot(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{Polls: 3})
	src := "resource \"sbx_volume\" \"v\" {\n  name    = \"restore_src\"\n  size_gb = 2\n}\n"
	var volID string
	snapRef := new(string) // "<volume id>:<snapshot id>", set by step 1
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config: cfg + src,
				Check: resource.ComposeAggregateTestCheckFunc(
					acctest.CaptureAttr("sbx_volume.v", "id", &volID),
					func(*terraform.State) error {
						// Taken with flyctl a moment before the next apply.
						*snapRef = volID + ":" + fake.SnapshotOutOfBand(volID)
						return nil
					},
				),
			},
			{
				ConfigVariables: config.Variables{"snapshot_id": acctest.LazyString{V: snapRef}},
				Config: cfg + src + `
variable "snapshot_id" {
  type = string
}

resource "sbx_volume" "r" {
  name             = "restored"
  from_snapshot_id = var.snapshot_id
}
`,
				ConfigPlanChecks: flyResEmptyAfterApply,
				Check:            flyRestoredSize(fake, "sbx_volume.r", 2),
			},
		},
	})
}

// flyMakeVolume makes a volume as another client would (POST
// /v1/apps/{app}/volumes) and returns its id.
func flyMakeVolume(t *testing.T, fake *flyfake.Server, name string, sizeGB int) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"name": name, "size_gb": sizeGB, "region": "iad"})
	req, err := http.NewRequest(http.MethodPost, fake.URL()+"/v1/apps/"+flyAccApp+"/volumes", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+flyAccToken)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }()
	var v struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("making volume %s: %d %v", name, res.StatusCode, err)
	}
	return v.ID
}

// A 2 GB volume made elsewhere, imported into a configuration that leaves
// size_gb out, plans nothing: an omitted size is whatever size the volume
// has (it used to plan size_gb = 2 -> null in place).
func TestAccFlyVolumeImportSizeUnset(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{})
	id := flyMakeVolume(t, fake, "made_elsewhere", 2)
	vol := "resource \"sbx_volume\" \"v\" {\n  name = \"made_elsewhere\"\n}\n"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config: cfg + vol + fmt.Sprintf("import {\n  to = sbx_volume.v\n  id = %q\n}\n", id),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_volume.v", plancheck.ResourceActionNoop)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("sbx_volume.v", "id", id),
					resource.TestCheckResourceAttr("sbx_volume.v", "size_gb", "2"),
				),
			},
			{
				Config:           cfg + vol,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// Plan-time rules: a volume name Fly refuses ('-', or 31 characters), and
// two sandboxes mounting one known volume, are refused at plan time.
func TestAccFlyPlanTimeVolumeRules(t *testing.T) {
	acctest.RequireTerraform(t)
	fake, cfg := flyAccFake(t, flyfake.Options{})
	vol := "resource \"sbx_volume\" \"v\" {\n  name = \"shared\"\n}\n"
	box := func(name string) string {
		return fmt.Sprintf("resource \"sbx_sandbox\" %q {\n  name        = %q\n  template_id = sbx_template.t.id\n  volume_mount {\n    volume_id = sbx_volume.v.id\n    path      = \"/data\"\n  }\n}\n", name, name)
	}
	base := cfg + flyTemplateHCL("rules-tpl") + vol
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: flyAccFactories,
		CheckDestroy:             flyResHoldsNothing(fake),
		Steps: []resource.TestStep{
			{
				Config:      cfg + "resource \"sbx_volume\" \"bad\" {\n  name = \"my-data\"\n}\n",
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Volume name Fly does not accept.*my-data`),
			},
			{
				Config:      cfg + "resource \"sbx_volume\" \"bad\" {\n  name = \"abcdefghijklmnopqrstuvwxyz01234\"\n}\n",
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Volume name Fly does not accept`),
			},
			{Config: base + box("one")},
			{
				Config:      base + box("one") + box("two"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Two sandboxes mount one volume.*sbx_sandbox`),
			},
		},
	})
}

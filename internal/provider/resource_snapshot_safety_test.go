package provider

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	sbxacctest "github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// snapshotSafetySources is the box a snapshot is taken of (it writes
// /work/kept.txt=<content>) and another box, to follow
// snapshotTestConfigBase.
func snapshotSafetySources(name, content string) string {
	return fmt.Sprintf(`
resource "sbx_sandbox" "src" {
  template_id = sbx_template.agent.id
  env         = { AGENT_FILES = "/work/kept.txt=%[2]s" }
  labels      = { test = %[1]q }
}

resource "sbx_sandbox" "other" {
  template_id = sbx_template.agent.id
  labels      = { test = %[1]q }
}
`, name, content)
}

// A snapshot is a checkpoint: its box replaced out of band (so the new
// box's id is known only after apply), then a configuration pointing at
// another, existing box, must never replace it. The plan keeps the source
// it was taken of and the snapshot (its id, its image and its data) stays;
// the apply-time plan and the state agree, also when another argument
// (timeouts) updates the snapshot in the same apply; the next plan is empty.
func TestAccSnapshot_sourceChangeKeepsSnapshot(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-snapkeep")
	snapshot := func(source, create string) string {
		return fmt.Sprintf(`
resource "sbx_snapshot" "x" {
  sandbox_id = %[2]s
  name       = "%[1]s-x"
  labels     = { test = %[1]q }
  timeouts {
    create = %[3]q
  }
}

resource "sbx_sandbox" "restored" {
  from_snapshot_id = sbx_snapshot.x.id
  labels           = { test = %[1]q }
}
`, name, source, create)
	}
	base := snapshotTestConfigBase(t, name) + snapshotSafetySources(name, "before")
	config := base + snapshot("sbx_sandbox.src.id", "7m")
	var snapID, boxID, newBoxID string
	kept := func() resource.TestCheckFunc {
		return resource.ComposeAggregateTestCheckFunc(
			resource.TestCheckResourceAttrWith("sbx_snapshot.x", "id", func(v string) error {
				if v != snapID {
					return fmt.Errorf("snapshot id %s, want the first snapshot %s kept", v, snapID)
				}
				if _, err := cli.ImageInspect(context.Background(), snapID); err != nil {
					return fmt.Errorf("snapshot image %s: %w", snapID, err)
				}
				return nil
			}),
			resource.TestCheckResourceAttrWith("sbx_snapshot.x", "sandbox_id", func(v string) error {
				if v != boxID {
					return fmt.Errorf("sandbox_id %s, want the box the snapshot was taken of, %s", v, boxID)
				}
				return nil
			}),
			snapshotTestRestoredHas(cli, "/work/kept.txt", "before"),
		)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             snapshotTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{
			{
				Config: base + snapshot("sbx_sandbox.src.id", "5m"),
				Check: resource.ComposeAggregateTestCheckFunc(
					sbxacctest.CaptureAttr("sbx_snapshot.x", "id", &snapID),
					sbxacctest.CaptureAttr("sbx_sandbox.src", "id", &boxID),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// The box is removed outside Terraform: it is created again,
				// with an id known only after apply; the snapshot stays (only
				// its changed timeout is updated, in place).
				PreConfig: func() {
					if err := cli.ContainerRemove(context.Background(), boxID, container.RemoveOptions{Force: true}); err != nil {
						t.Fatalf("removing sandbox %s out of band: %v", boxID, err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("sbx_sandbox.src", plancheck.ResourceActionCreate),
						plancheck.ExpectResourceAction("sbx_snapshot.x", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("sbx_sandbox.restored", plancheck.ResourceActionNoop),
						plancheck.ExpectKnownValue("sbx_snapshot.x", tfjsonpath.New("sandbox_id"), knownvalue.StringFunc(func(v string) error {
							if v != boxID {
								return fmt.Errorf("planned sandbox_id %s, want %s kept", v, boxID)
							}
							return nil
						})),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					kept(),
					sbxacctest.CaptureAttr("sbx_sandbox.src", "id", &newBoxID),
					func(*terraform.State) error {
						if newBoxID == boxID {
							return fmt.Errorf("the box was not created again")
						}
						return nil
					},
				),
			},
			{
				// The next plan, now that the new box's id is known: empty.
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            kept(),
			},
			{
				// Pointed at another existing box: kept all the same.
				Config: base + snapshot("sbx_sandbox.other.id", "7m"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: kept(),
			},
		},
	})
}

// replace_triggered_by is how a new snapshot is taken when the source
// changes: the box replaced (its env changed) replaces a snapshot whose
// replace_triggered_by names it. A box deleted outside Terraform is
// created, not replaced, which replace_triggered_by does not see; a
// terraform_data whose triggers_replace is the box's id does, and a
// snapshot triggered by it is replaced too. Each new snapshot is of the new box.
func TestAccSnapshot_replaceTriggeredBy(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-snaptrig")
	base := snapshotTestConfigBase(t, name)
	config := func(content string) string {
		return base + snapshotSafetySources(name, content) + fmt.Sprintf(`
resource "sbx_snapshot" "x" {
  sandbox_id = sbx_sandbox.src.id
  labels     = { test = %[1]q }
  lifecycle {
    replace_triggered_by = [sbx_sandbox.src.id]
  }
}

resource "terraform_data" "src_id" {
  triggers_replace = sbx_sandbox.src.id
}

resource "sbx_snapshot" "y" {
  sandbox_id = sbx_sandbox.src.id
  labels     = { test = %[1]q }
  lifecycle {
    replace_triggered_by = [terraform_data.src_id]
  }
}
`, name)
	}
	var xID, yID, boxID string
	replaced := func(addr string, old *string) resource.TestCheckFunc {
		return resource.ComposeAggregateTestCheckFunc(
			resource.TestCheckResourceAttrPair(addr, "sandbox_id", "sbx_sandbox.src", "id"),
			resource.TestCheckResourceAttrWith(addr, "id", func(v string) error {
				if v == *old {
					return fmt.Errorf("%s (%s) was not replaced", addr, v)
				}
				if _, err := cli.ImageInspect(context.Background(), *old); err == nil {
					return fmt.Errorf("the replaced %s (%s) is still on the engine", addr, *old)
				}
				*old = v
				return nil
			}),
		)
	}
	capture := resource.ComposeAggregateTestCheckFunc(
		sbxacctest.CaptureAttr("sbx_snapshot.x", "id", &xID),
		sbxacctest.CaptureAttr("sbx_snapshot.y", "id", &yID),
		sbxacctest.CaptureAttr("sbx_sandbox.src", "id", &boxID),
	)
	empty := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	xOnRecreate, xOnRecreateCheck := plancheck.ResourceActionNoop, replaced("sbx_snapshot.y", &yID)
	if _, tofu := sbxacctest.IsOpenTofu(); tofu {
		xOnRecreate = plancheck.ResourceActionDestroyBeforeCreate
		xOnRecreateCheck = resource.ComposeAggregateTestCheckFunc(replaced("sbx_snapshot.x", &xID), xOnRecreateCheck)
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             snapshotTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{
			{
				Config:           config("one"),
				Check:            capture,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: empty},
			},
			{
				// The box is replaced: both snapshots are taken again.
				Config: config("two"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("sbx_sandbox.src", plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectResourceAction("sbx_snapshot.x", plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectResourceAction("sbx_snapshot.y", plancheck.ResourceActionDestroyBeforeCreate),
						plancheck.ExpectUnknownValue("sbx_snapshot.x", tfjsonpath.New("sandbox_id")),
					},
					PostApplyPostRefresh: empty,
				},
				Check: resource.ComposeAggregateTestCheckFunc(replaced("sbx_snapshot.x", &xID), replaced("sbx_snapshot.y", &yID), capture),
			},
			{
				// The box is deleted outside Terraform: it is created again;
				// only the snapshot triggered through terraform_data is replaced.
				// OpenTofu (not the provider) differs: its replace_triggered_by
				// sees the re-created box's new id, so x is replaced too.
				PreConfig: func() {
					if err := cli.ContainerRemove(context.Background(), boxID, container.RemoveOptions{Force: true}); err != nil {
						t.Fatalf("removing sandbox %s out of band: %v", boxID, err)
					}
				},
				Config: config("two"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("sbx_sandbox.src", plancheck.ResourceActionCreate),
						plancheck.ExpectResourceAction("sbx_snapshot.x", xOnRecreate),
						plancheck.ExpectResourceAction("sbx_snapshot.y", plancheck.ResourceActionDestroyBeforeCreate),
					},
					PostApplyPostRefresh: empty,
				},
				Check: xOnRecreateCheck,
			},
		},
	})
}

// A sandbox's env values are secrets. Neither the snapshot of the box, nor
// a volume snapshot, nor any image left on the engine holds one in what
// docker image inspect or docker history shows; a box restored from the
// snapshot runs with the files, and a snapshot of it names its parent.
func TestAccSnapshot_noSecretInImages(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-snapsecret")
	secret := "sbx-secret-" + acctest.RandString(16)
	config := snapshotTestConfigBase(t, name) + fmt.Sprintf(`
resource "sbx_volume" "data" {
  name   = "%[1]s-data"
  labels = { test = %[1]q }
}

resource "sbx_sandbox" "src" {
  template_id = sbx_template.agent.id
  env = {
    API_TOKEN   = %[2]q
    AGENT_FILES = "/work/hello.txt=hi;/data/v.txt=on the volume"
  }
  labels = { test = %[1]q }
  volume_mount {
    volume_id = sbx_volume.data.id
    path      = "/data"
  }
}

resource "sbx_snapshot" "x" {
  sandbox_id = sbx_sandbox.src.id
  labels     = { test = %[1]q }
}

resource "sbx_snapshot" "vol" {
  volume_id  = sbx_volume.data.id
  labels     = { test = %[1]q }
  depends_on = [sbx_sandbox.src]
}

resource "sbx_sandbox" "restored" {
  from_snapshot_id = sbx_snapshot.x.id
  labels           = { test = %[1]q }
}

resource "sbx_snapshot" "child" {
  sandbox_id = sbx_sandbox.restored.id
  labels     = { test = %[1]q }
}
`, name, secret)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             snapshotTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{{
			Config: config,
			Check: resource.ComposeAggregateTestCheckFunc(
				snapshotTestNoImageHolds(cli, secret),
				snapshotTestImageEnv(cli, "sbx_snapshot.x", "API_TOKEN="),
				resource.TestCheckResourceAttr("sbx_sandbox.restored", "status", "running"),
				snapshotTestRestoredHas(cli, "/work/hello.txt", "hi"),
				resource.TestCheckResourceAttrPair("sbx_snapshot.child", "parent_snapshot_id", "sbx_snapshot.x", "id"),
				resource.TestCheckResourceAttr("sbx_snapshot.vol", "kind", "volume"),
			),
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}

// snapshotTestNoImageHolds fails when value appears in the docker image
// inspect JSON or the docker history of any image on the engine: the
// snapshots, and any intermediate image a snapshot left.
func snapshotTestNoImageHolds(cli *client.Client, value string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ctx := context.Background()
		list, err := cli.ImageList(ctx, image.ListOptions{All: true})
		if err != nil {
			return err
		}
		checked := 0
		for _, summary := range list {
			var raw bytes.Buffer
			if _, err := cli.ImageInspect(ctx, summary.ID, client.ImageInspectWithRawResponse(&raw)); err != nil {
				continue // removed meanwhile by another test
			}
			if strings.Contains(raw.String(), value) {
				return fmt.Errorf("image %s %v holds the secret in docker image inspect:\n%s", summary.ID, summary.RepoTags, raw.String())
			}
			hist, err := cli.ImageHistory(ctx, summary.ID)
			if err != nil {
				continue
			}
			b, _ := json.Marshal(hist)
			if strings.Contains(string(b), value) {
				return fmt.Errorf("image %s %v holds the secret in docker history: %s", summary.ID, summary.RepoTags, b)
			}
			checked++
		}
		if checked == 0 {
			return fmt.Errorf("no image was checked")
		}
		return nil
	}
}

// snapshotTestImageEnv checks that the snapshot image's env holds want.
func snapshotTestImageEnv(cli *client.Client, addr, want string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(addr, "id", func(id string) error {
		img, err := cli.ImageInspect(context.Background(), id)
		if err != nil {
			return err
		}
		for _, kv := range img.Config.Env {
			if kv == want {
				return nil
			}
		}
		return fmt.Errorf("snapshot image env %q has no %q", img.Config.Env, want)
	})
}

// A snapshot image takes none of the ownership labels of the box it was
// committed from, and importing anything but a snapshot as sbx_snapshot
// (a template's image, an image the provider did not make, a sandbox) is
// an import error saying what it is.
func TestAccSnapshot_ownershipAndWrongKindImport(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-snapkind")
	config := snapshotTestConfigBase(t, name) + fmt.Sprintf(`
resource "sbx_sandbox" "src" {
  name        = "%[1]s-box"
  template_id = sbx_template.agent.id
  labels      = { test = %[1]q }
}

resource "sbx_snapshot" "x" {
  sandbox_id = sbx_sandbox.src.id
  labels     = { test = %[1]q }
}
`, name)
	foreign := "tf-acc-foreign/" + name + ":1"
	wrong := func(id func(*terraform.State) (string, error), want string) resource.TestStep {
		return resource.TestStep{
			Config:            config,
			ResourceName:      "sbx_snapshot.x",
			ImportState:       true,
			ImportStateIdFunc: id,
			ExpectError:       regexp.MustCompile(want),
		}
	}
	attr := func(addr, key string) func(*terraform.State) (string, error) {
		return func(s *terraform.State) (string, error) {
			rs, ok := s.RootModule().Resources[addr]
			if !ok {
				return "", fmt.Errorf("%s not in state", addr)
			}
			return rs.Primary.Attributes[key], nil
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             snapshotTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					func(s *terraform.State) error {
						snap := s.RootModule().Resources["sbx_snapshot.x"].Primary.ID
						box := s.RootModule().Resources["sbx_sandbox.src"].Primary.ID
						img, err := cli.ImageInspect(context.Background(), snap)
						if err != nil {
							return err
						}
						ctr, err := cli.ContainerInspect(context.Background(), box)
						if err != nil {
							return err
						}
						il, cl := img.Config.Labels, ctr.Config.Labels
						switch {
						case il[platform.LabelKind] != "snapshot":
							return fmt.Errorf("snapshot image kind %q", il[platform.LabelKind])
						case il[platform.LabelName] != "":
							return fmt.Errorf("snapshot image name %q, want none (the box's is %q)", il[platform.LabelName], cl[platform.LabelName])
						case il[platform.LabelCreateToken] == "" || il[platform.LabelCreateToken] == cl[platform.LabelCreateToken]:
							return fmt.Errorf("snapshot image create token %q, box's %q", il[platform.LabelCreateToken], cl[platform.LabelCreateToken])
						}
						return nil
					},
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			wrong(attr("sbx_template.agent", "id"), `(?s)Cannot import snapshot.*of\s+template\s+"`+name+`"`),
			wrong(func(*terraform.State) (string, error) {
				// An image the provider did not make: one empty layer.
				var buf bytes.Buffer
				tw := tar.NewWriter(&buf)
				_ = tw.WriteHeader(&tar.Header{Name: "f", Mode: 0o644, Typeflag: tar.TypeReg})
				_ = tw.Close()
				rc, err := cli.ImageImport(context.Background(), image.ImportSource{Source: &buf, SourceName: "-"}, foreign, image.ImportOptions{})
				if err != nil {
					return "", err
				}
				_, _ = bytes.NewBuffer(nil).ReadFrom(rc)
				_ = rc.Close()
				t.Cleanup(func() {
					_, _ = cli.ImageRemove(context.Background(), foreign, image.RemoveOptions{Force: true, PruneChildren: true})
				})
				return foreign, nil
			}, `(?s)Cannot import snapshot.*the\s+provider\s+did\s+not\s+make`),
			wrong(attr("sbx_sandbox.src", "id"), `(?s)Cannot import snapshot.*it\s+is\s+sandbox\s+[0-9a-f]{64}`),
		},
	})
}

// A snapshot may name its box by name (Docker accepts names). State keeps
// the name as configured (no "inconsistent result"), the next plan is
// empty, and an import (which reads the box's id) plans no change.
func TestAccSnapshot_sourceByName(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-snapname")
	config := snapshotTestConfigBase(t, name) + fmt.Sprintf(`
resource "sbx_sandbox" "src" {
  name        = "%[1]s-box"
  template_id = sbx_template.agent.id
  env         = { AGENT_FILES = "/work/n.txt=named" }
  labels      = { test = %[1]q }
}

resource "sbx_snapshot" "x" {
  sandbox_id = sbx_sandbox.src.name
  labels     = { test = %[1]q }
}

resource "sbx_sandbox" "restored" {
  from_snapshot_id = sbx_snapshot.x.id
  labels           = { test = %[1]q }
}
`, name)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: resource.ComposeTestCheckFunc(
			snapshotTestCheckDestroy(cli, name),
			sandboxAccCheckDestroy(t, name+"-box"),
		),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("sbx_snapshot.x", "sandbox_id", name+"-box"),
					snapshotTestRestoredHas(cli, "/work/n.txt", "named"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				ResourceName:    "sbx_snapshot.x",
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportPlanChecks: resource.ImportPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_snapshot.x", plancheck.ResourceActionNoop)},
				},
			},
		},
	})
}

package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/client"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	sbxacctest "github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

func TestAccSnapshot_sandboxLineageAndImport(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-snap")
	config := snapshotTestConfigBase(t, name) + fmt.Sprintf(`
resource "sbx_sandbox" "src" {
  template_id = sbx_template.agent.id
  env         = { AGENT_FILES = "/work/hello.txt=hi" }
  labels      = { test = %[1]q }
}

resource "sbx_snapshot" "x" {
  sandbox_id = sbx_sandbox.src.id
  name       = "%[1]s-x"
  labels     = { test = %[1]q }
}

resource "sbx_sandbox" "restored" {
  from_snapshot_id = sbx_snapshot.x.id
  labels           = { test = %[1]q }
}

resource "sbx_snapshot" "child" {
  sandbox_id = sbx_sandbox.restored.id
  labels     = { test = %[1]q }
}
`, name)

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             snapshotTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestMatchResourceAttr("sbx_snapshot.x", "id", regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)),
					resource.TestCheckResourceAttr("sbx_snapshot.x", "kind", "filesystem"),
					resource.TestCheckResourceAttr("sbx_snapshot.x", "include_memory", "false"),
					resource.TestCheckResourceAttr("sbx_snapshot.x", "name", name+"-x"),
					resource.TestCheckResourceAttrPair("sbx_snapshot.x", "sandbox_id", "sbx_sandbox.src", "id"),
					resource.TestCheckResourceAttrSet("sbx_snapshot.x", "created_at"),
					resource.TestCheckResourceAttrSet("sbx_snapshot.x", "size_bytes"),
					resource.TestCheckNoResourceAttr("sbx_snapshot.x", "expires_at"),
					resource.TestCheckNoResourceAttr("sbx_snapshot.x", "parent_snapshot_id"),
					// The restored sandbox sees what the agent wrote before the snapshot.
					snapshotTestRestoredHas(cli, "/work/hello.txt", "hi"),
					// Lineage: a snapshot of the restored sandbox names the snapshot it came from.
					resource.TestCheckResourceAttrPair("sbx_snapshot.child", "parent_snapshot_id", "sbx_snapshot.x", "id"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ResourceName:      "sbx_snapshot.x",
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				ResourceName:      "sbx_snapshot.child",
				ImportState:       true,
				ImportStateVerify: true,
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

func TestAccSnapshot_volume(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-snap")
	config := snapshotTestConfigBase(t, name) + fmt.Sprintf(`
resource "sbx_volume" "data" {
  name   = "%[1]s-data"
  labels = { test = %[1]q }
}

resource "sbx_sandbox" "writer" {
  template_id = sbx_template.agent.id
  env         = { AGENT_FILES = "/data/v.txt=in the volume" }
  labels      = { test = %[1]q }
  volume_mount {
    volume_id = sbx_volume.data.id
    path      = "/data"
  }
}

resource "sbx_snapshot" "vol" {
  volume_id = sbx_volume.data.id
  labels    = { test = %[1]q }
  # The file is written when the sandbox starts.
  depends_on = [sbx_sandbox.writer]
}

resource "sbx_volume" "restored" {
  name             = "%[1]s-restored"
  from_snapshot_id = sbx_snapshot.vol.id
  labels           = { test = %[1]q }
}
`, name)

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             snapshotTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("sbx_snapshot.vol", "kind", "volume"),
					resource.TestCheckResourceAttrPair("sbx_snapshot.vol", "volume_id", "sbx_volume.data", "id"),
					resource.TestCheckNoResourceAttr("sbx_snapshot.vol", "sandbox_id"),
					resource.TestCheckNoResourceAttr("sbx_snapshot.vol", "parent_snapshot_id"),
					snapshotTestVolumeHas(cli, "sbx_volume.restored", "sbx_template.agent", "/data/v.txt", "in the volume"),
				),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				ResourceName:      "sbx_snapshot.vol",
				ImportState:       true,
				ImportStateVerify: true,
			},
		},
	})
}

func TestAccSnapshot_disappears(t *testing.T) {
	cli := sbxacctest.DockerClient(t)
	name := acctest.RandomWithPrefix("tf-acc-snap")
	config := snapshotTestConfigBase(t, name) + fmt.Sprintf(`
resource "sbx_sandbox" "src" {
  template_id = sbx_template.agent.id
  labels      = { test = %[1]q }
}

resource "sbx_snapshot" "x" {
  sandbox_id = sbx_sandbox.src.id
  labels     = { test = %[1]q }
  timeouts {
    create = "5m"
  }
}
`, name)
	var snapID string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             snapshotTestCheckDestroy(cli, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check:  sbxacctest.CaptureAttr("sbx_snapshot.x", "id", &snapID),
			},
			{
				// Deleted outside Terraform: refresh forgets it, the plan takes it again.
				PreConfig: func() {
					if _, err := cli.ImageRemove(context.Background(), snapID, image.RemoveOptions{Force: true, PruneChildren: true}); err != nil {
						t.Fatalf("removing snapshot %s out of band: %v", snapID, err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_snapshot.x", plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// A changed timeout is an in-place update that touches nothing.
				Config: regexp.MustCompile(`create = "5m"`).ReplaceAllString(config, `create = "7m"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_snapshot.x", plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

func TestAccSnapshot_validation(t *testing.T) {
	sbxacctest.RequireDocker(t)
	cases := []struct {
		name, body, want string
	}{
		{"include_memory on docker", `sandbox_id = "box"
  include_memory = true`, `include_memory = true is not supported on docker`},
		{"ttl on docker", `sandbox_id = "box"
  ttl = "72h"`, `ttl = "72h" is not supported on docker`},
		{"ttl not a duration", `sandbox_id = "box"
  ttl = "soon"`, `ttl = "soon": not a duration`},
		{"ttl not positive", `sandbox_id = "box"
  ttl = "-1h"`, `ttl = "-1h": must be positive`},
		{"both sources", `sandbox_id = "box"
  volume_id = "vol"`, `(?s)Exactly one of these attributes must be.*configured`},
		{"no source", `name = "x"`, `(?s)Exactly one of these attributes must be.*configured`},
		{"include_memory with a volume", `volume_id = "vol"
  include_memory = false`, `cannot be configured together: \[include_memory,volume_id\]`},
		{"reserved label", `sandbox_id = "box"
  labels = { "sbx.terraform.kind" = "x" }`, `reserved`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      "resource \"sbx_snapshot\" \"test\" {\n  " + tc.body + "\n}\n",
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

// snapshotTestConfigBase is the agent template every snapshot test starts from.
func snapshotTestConfigBase(t *testing.T, name string) string {
	dir := templateTestContext(t)
	return fmt.Sprintf(`
resource "sbx_template" "agent" {
  name        = %[1]q
  dockerfile  = file("%[2]s/Dockerfile")
  context_dir = %[2]q
  ready_cmd   = "/agent ready"
}
`, name, dir)
}

// snapshotTestRestoredHas reads file from the container of the sandbox
// restored from a snapshot (sbx_sandbox.restored).
func snapshotTestRestoredHas(cli *client.Client, file, want string) resource.TestCheckFunc {
	const sandboxAddr = "sbx_sandbox.restored"
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[sandboxAddr]
		if !ok {
			return fmt.Errorf("%s not in state", sandboxAddr)
		}
		got, err := templateTestCopyOut(cli, rs.Primary.ID, file)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%s in %s = %q, want %q", file, sandboxAddr, got, want)
		}
		return nil
	}
}

// snapshotTestVolumeHas reads file from a volume through a container created
// (never started) from the template's image with the volume mounted at /data.
func snapshotTestVolumeHas(cli *client.Client, volumeAddr, templateAddr, file, want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		vol, ok1 := s.RootModule().Resources[volumeAddr]
		tpl, ok2 := s.RootModule().Resources[templateAddr]
		if !ok1 || !ok2 {
			return fmt.Errorf("%s or %s not in state", volumeAddr, templateAddr)
		}
		ctx := context.Background()
		c, err := cli.ContainerCreate(ctx, &container.Config{Image: tpl.Primary.ID},
			&container.HostConfig{Mounts: []mount.Mount{{Type: mount.TypeVolume, Source: vol.Primary.ID, Target: "/data"}}},
			nil, nil, "")
		if err != nil {
			return err
		}
		defer func() { _ = cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true}) }()
		got, err := templateTestCopyOut(cli, c.ID, file)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%s in %s = %q, want %q", file, volumeAddr, got, want)
		}
		return nil
	}
}

// snapshotTestCheckDestroy checks that no image labelled test=<name> (every
// snapshot the test made) remains.
func snapshotTestCheckDestroy(cli *client.Client, name string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		list, err := cli.ImageList(context.Background(), image.ListOptions{All: true,
			Filters: filters.NewArgs(filters.Arg("label", "test="+name))})
		if err != nil {
			return err
		}
		if len(list) > 0 {
			return fmt.Errorf("%d snapshot images labelled test=%s remain, e.g. %s", len(list), name, list[0].ID)
		}
		return templateTestCheckDestroy(cli, name)(s)
	}
}

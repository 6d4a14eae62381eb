package provider

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"maps"
	"testing"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/api/types/volume"
	"github.com/docker/docker/client"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

const volumeAccAddr = "sbx_volume.test"

// volumeAccConfig is a template (whose image the tests use to reach into
// the volume) and one volume with the given body lines.
func volumeAccConfig(t *testing.T, name, body string) string {
	return sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
resource "sbx_volume" "test" {
  name = %q
%s
}
`, name, body)
}

// volumeAccCheckDestroy proves the volume named name is gone.
func volumeAccCheckDestroy(t *testing.T, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, err := acctest.DockerClient(t).VolumeInspect(context.Background(), name)
		if err == nil {
			return fmt.Errorf("volume %s still exists after destroy", name)
		}
		return sandboxAccIgnoreNotFound(err)
	}
}

// volumeAccCheckLabels checks the Docker volume's own labels hold want.
func volumeAccCheckLabels(t *testing.T, name string, want map[string]string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		v, err := acctest.DockerClient(t).VolumeInspect(context.Background(), name)
		if err != nil {
			return err
		}
		for k, val := range want {
			if v.Labels[k] != val {
				return fmt.Errorf("volume %s label %s = %q, want %q (labels: %v)", name, k, v.Labels[k], val, v.Labels)
			}
		}
		return nil
	}
}

// volumeAccWithContainer runs fn on a never-started container from the
// template's image that mounts the volume at /data, then removes it. The
// engine's copy API works on such containers, so no shell is needed.
func volumeAccWithContainer(t *testing.T, volumeName string, fn func(ctx context.Context, api *client.Client, id string) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		image, err := acctest.ResourceID(s, "sbx_template.t")
		if err != nil {
			return err
		}
		ctx := context.Background()
		api := acctest.DockerClient(t)
		c, err := api.ContainerCreate(ctx, &container.Config{Image: image},
			&container.HostConfig{Mounts: []mount.Mount{{Type: mount.TypeVolume, Source: volumeName, Target: "/data"}}},
			nil, nil, "")
		if err != nil {
			return fmt.Errorf("creating a container to reach volume %s: %w", volumeName, err)
		}
		defer func() { _ = api.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true}) }()
		return fn(ctx, api, c.ID)
	}
}

// volumeAccWriteFile writes /data/<file> into the volume.
func volumeAccWriteFile(t *testing.T, volumeName, file, content string) resource.TestCheckFunc {
	return volumeAccWithContainer(t, volumeName, func(ctx context.Context, api *client.Client, id string) error {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		if err := tw.WriteHeader(&tar.Header{Name: file, Mode: 0o644, Size: int64(len(content))}); err != nil {
			return err
		}
		if _, err := tw.Write([]byte(content)); err != nil {
			return err
		}
		if err := tw.Close(); err != nil {
			return err
		}
		return api.CopyToContainer(ctx, id, "/data", &buf, container.CopyToContainerOptions{})
	})
}

// volumeAccCheckFile checks /data/<file> in the volume holds want.
func volumeAccCheckFile(t *testing.T, volumeName, file, want string) resource.TestCheckFunc {
	return volumeAccWithContainer(t, volumeName, func(ctx context.Context, api *client.Client, id string) error {
		got, err := sandboxAccReadFile(ctx, api, id, "/data/"+file)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("volume %s: %s = %q, want %q", volumeName, file, got, want)
		}
		return nil
	})
}

// volumeAccCreateUnmanaged makes a volume the way `docker volume create NAME`
// does, and removes it when the test ends if Terraform did not.
func volumeAccCreateUnmanaged(t *testing.T, name string) {
	t.Helper()
	api := acctest.DockerClient(t)
	if _, err := api.VolumeCreate(context.Background(), volume.CreateOptions{Name: name}); err != nil {
		t.Fatalf("docker volume create %s: %v", name, err)
	}
	t.Cleanup(func() { _ = api.VolumeRemove(context.Background(), name, true) })
}

// TestAccVolume_labels creates a labelled volume, relabels it in place
// (same id, data kept) and imports it.
func TestAccVolume_labels(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-volume")
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             volumeAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config: volumeAccConfig(t, name, `labels = { team = "a" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(volumeAccAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(volumeAccAddr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(volumeAccAddr, tfjsonpath.New("labels"),
						knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("a")})),
					statecheck.ExpectKnownValue(volumeAccAddr, tfjsonpath.New("state"), knownvalue.StringExact("available")),
					statecheck.ExpectKnownValue(volumeAccAddr, tfjsonpath.New("attached_to"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue(volumeAccAddr, tfjsonpath.New("size_gb"), knownvalue.Null()),
				},
				Check: resource.ComposeTestCheckFunc(
					volumeAccCheckLabels(t, name, map[string]string{"team": "a", "sbx.terraform.managed": "true"}),
					volumeAccWriteFile(t, name, "keep.txt", "data that must survive a relabel"),
				),
			},
			{
				Config: volumeAccConfig(t, name, `labels = { team = "b", tier = "gold" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(volumeAccAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(volumeAccAddr, tfjsonpath.New("id"))},
				Check: resource.ComposeTestCheckFunc(
					volumeAccCheckLabels(t, name, map[string]string{"team": "b", "tier": "gold"}),
					volumeAccCheckFile(t, name, "keep.txt", "data that must survive a relabel"),
				),
			},
			{
				ResourceName:      volumeAccAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// Import by the plain volume name, which is what `docker volume ls` shows.
				ResourceName:      volumeAccAddr,
				ImportState:       true,
				ImportStateId:     name,
				ImportStateVerify: true,
			},
		},
	})
}

// TestAccVolume_importUnmanaged imports a volume made with `docker volume
// create` (no labels) by `terraform import`, then plans empty.
func TestAccVolume_importUnmanaged(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-volume")
	config := fmt.Sprintf("resource \"sbx_volume\" \"test\" {\n  name = %q\n}\n", name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             volumeAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				PreConfig:          func() { volumeAccCreateUnmanaged(t, name) },
				Config:             config,
				ResourceName:       volumeAccAddr,
				ImportState:        true,
				ImportStateId:      name,
				ImportStatePersist: true,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 {
						return fmt.Errorf("imported %d objects, want 1", len(states))
					}
					want := map[string]string{"id": name, "name": name, "state": "available", "attached_to.#": "0"}
					got := map[string]string{}
					for k := range want {
						got[k] = states[0].Attributes[k]
					}
					if !maps.Equal(got, want) {
						return fmt.Errorf("imported attributes %v, want %v", got, want)
					}
					if _, ok := states[0].Attributes["labels.%"]; ok && states[0].Attributes["labels.%"] != "0" {
						return fmt.Errorf("an unlabelled volume imported labels: %v", states[0].Attributes)
					}
					return nil
				},
			},
			{
				Config:   config,
				PlanOnly: true, // fails on any planned change
			},
		},
	})
}

// TestAccVolume_importBlock imports a `docker volume create` volume with an
// import {} block: the plan is an import with no changes, and after the
// apply the plan is empty.
func TestAccVolume_importBlock(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-volume")
	config := fmt.Sprintf(`
import {
  to = sbx_volume.test
  id = %[1]q
}

resource "sbx_volume" "test" {
  name = %[1]q
}
`, name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             volumeAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				PreConfig: func() { volumeAccCreateUnmanaged(t, name) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(volumeAccAddr, plancheck.ResourceActionNoop)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(volumeAccAddr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(volumeAccAddr, tfjsonpath.New("labels"), knownvalue.Null()),
				},
			},
		},
	})
}

// TestAccVolume_importBlockKind runs plugin-testing's own import-block mode
// against a volume the configuration made.
func TestAccVolume_importBlockKind(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-volume")
	config := fmt.Sprintf("resource \"sbx_volume\" \"test\" {\n  name = %q\n  labels = { team = \"a\" }\n}\n", name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             volumeAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config:          config,
				ResourceName:    volumeAccAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
		},
	})
}

// TestAccVolume_disappears removes the volume out of band: the refresh drops
// it with a warning and plans a create.
func TestAccVolume_disappears(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-volume")
	config := fmt.Sprintf("resource \"sbx_volume\" \"test\" {\n  name = %q\n}\n", name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             volumeAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: func(*terraform.State) error {
					return acctest.DockerClient(t).VolumeRemove(context.Background(), name, true)
				},
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(volumeAccAddr, plancheck.ResourceActionCreate)},
				},
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(volumeAccAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestAccVolume_validation: settings Docker volumes cannot have are plan errors.
func TestAccVolume_validation(t *testing.T) {
	acctest.RequireDocker(t)
	vol := func(body string) string {
		return fmt.Sprintf("resource \"sbx_volume\" \"test\" {\n  name = \"tf-acc-volume-never-made\"\n%s\n}\n", body)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		Steps: []resource.TestStep{
			{Config: vol(`size_gb = 10`), PlanOnly: true,
				ExpectError: acctest.ErrorPattern(`(?s)size_gb = 10 is not supported on docker:\s+Docker volumes have\s+no size`)},
			{Config: vol(`region = "ord"`), PlanOnly: true,
				ExpectError: acctest.ErrorPattern(`(?s)region = "ord" is not supported on docker`)},
			{Config: `resource "sbx_volume" "test" { name = "-bad" }`, PlanOnly: true,
				ExpectError: acctest.ErrorPattern(`(?s)name.*must be letters, digits`)},
		},
	})
}

// TestAccVolume_labelsWhileMounted: Docker relabels only an idle volume, so
// a label change while a sandbox mounts it is a plan error naming the box.
func TestAccVolume_labelsWhileMounted(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-volume")
	config := func(labels string) string {
		return volumeAccConfig(t, name, labels) + fmt.Sprintf(`
resource "sbx_sandbox" "test" {
  name        = %q
  template_id = sbx_template.t.id
  volume_mount {
    volume_id = sbx_volume.test.id
    path      = "/data"
  }
}
`, name)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             resource.ComposeTestCheckFunc(volumeAccCheckDestroy(t, name), sandboxAccCheckDestroy(t, name)),
		Steps: []resource.TestStep{
			{
				Config: config(`labels = { team = "a" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				Config:      config(`labels = { team = "b" }`),
				ExpectError: acctest.ErrorPattern(`(?s)Cannot relabel a mounted volume.*mounted by sandbox\(es\)\s+[0-9a-f]{64}.*Detach`),
			},
		},
	})
}

package provider

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
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
	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

const sandboxAccAddr = "sbx_sandbox.test"

// sandboxAccImportIgnore: Docker does not report when a box entered its
// status, so an import records the import time as status_since.
var sandboxAccImportIgnore = []string{"status_since"}

// sandboxAccTemplateHCL is an sbx_template building the test agent image.
func sandboxAccTemplateHCL(t *testing.T, name string) string {
	return fmt.Sprintf(`
resource "sbx_template" "t" {
  name        = %q
  context_dir = %q
  dockerfile  = <<-EOT
%sEOT
}
`, name, acctest.AgentContextDir(t), acctest.AgentDockerfile)
}

// sandboxAccConfig is a template and one sandbox named name in state, with
// extra lines added to the sandbox block.
func sandboxAccConfig(t *testing.T, name, state, extra string) string {
	return sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
resource "sbx_sandbox" "test" {
  name        = %q
  template_id = sbx_template.t.id
  state       = %q
%s
}
`, name, state, extra)
}

// sandboxAccCheckContainer checks, through the Docker engine itself, that
// the sandbox's container is in want ("running", "paused", "exited"...).
func sandboxAccCheckContainer(t *testing.T, want ...string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id, err := acctest.ResourceID(s, sandboxAccAddr)
		if err != nil {
			return err
		}
		c, err := acctest.DockerClient(t).ContainerInspect(context.Background(), id)
		if err != nil {
			return fmt.Errorf("inspecting container %s: %w", id, err)
		}
		for _, w := range want {
			if c.State.Status == w {
				return nil
			}
		}
		return fmt.Errorf("container %s is %q, want one of %v", id, c.State.Status, want)
	}
}

// sandboxAccContainer runs fn on the sandbox's container, out of band.
func sandboxAccContainer(t *testing.T, fn func(ctx context.Context, api *client.Client, id string) error) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id, err := acctest.ResourceID(s, sandboxAccAddr)
		if err != nil {
			return err
		}
		return fn(context.Background(), acctest.DockerClient(t), id)
	}
}

// sandboxAccCheckDestroy proves no container named name is left.
func sandboxAccCheckDestroy(t *testing.T, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		list, err := acctest.DockerClient(t).ContainerList(context.Background(), container.ListOptions{
			All: true, Filters: filters.NewArgs(filters.Arg("name", "^/"+regexp.QuoteMeta(name)+"$")),
		})
		if err != nil {
			return err
		}
		if len(list) > 0 {
			return fmt.Errorf("container %s (%s) still exists after destroy", name, list[0].ID)
		}
		return nil
	}
}

// sandboxAccReadFile reads a file out of a container (or a volume it
// mounts) with the engine's copy API, retrying while the agent writes it.
// The agent writes its files as it starts, within a second; the bound,
// clock.Patience, is for a file that never comes.
func sandboxAccReadFile(ctx context.Context, api *client.Client, id, path string) (string, error) {
	var content string
	var err error
	if clock.Eventually(func() bool {
		var rc io.ReadCloser
		if rc, _, err = api.CopyFromContainer(ctx, id, path); err != nil {
			return false
		}
		content, err = sandboxAccFirstTarFile(rc)
		_ = rc.Close() // read above; closing only frees the connection
		return err == nil
	}) {
		return content, nil
	}
	return "", fmt.Errorf("reading %s from container %s: %w", path, id, err)
}

func sandboxAccFirstTarFile(r io.Reader) (string, error) {
	tr := tar.NewReader(r)
	hdr, err := tr.Next()
	if err != nil {
		return "", err
	}
	if hdr.Typeflag != tar.TypeReg {
		return "", fmt.Errorf("%s is not a regular file", hdr.Name)
	}
	b, err := io.ReadAll(tr)
	return string(b), err
}

// TestAccSandbox_lifecycle creates a running box, then pauses, stops and
// starts it again in place (same container each step), then imports it.
func TestAccSandbox_lifecycle(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox")
	sameID := statecheck.CompareValue(compare.ValuesSame())
	step := func(state string, docker ...string) resource.TestStep {
		return resource.TestStep{
			Config: sandboxAccConfig(t, name, state, ""),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionUpdate)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				sameID.AddStateValue(sandboxAccAddr, tfjsonpath.New("id")),
				statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("state"), knownvalue.StringExact(state)),
				statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("status"), knownvalue.StringExact(state)),
			},
			Check: sandboxAccCheckContainer(t, docker...),
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config: sandboxAccConfig(t, name, "running", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(sandboxAccAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("status"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("memory_mb"), knownvalue.Null()),
					statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("created_at"),
						knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
				},
				Check: sandboxAccCheckContainer(t, "running"),
			},
			step("paused", "paused"),
			step("stopped", "exited", "created"),
			step("running", "running"),
			{
				ResourceName:            sandboxAccAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: sandboxAccImportIgnore,
			},
			{
				// The same through an import {} block: the plan must be an
				// import with no changes.
				Config:          sandboxAccConfig(t, name, "running", ""),
				ResourceName:    sandboxAccAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
		},
	})
}

// TestAccSandbox_resize changes memory_mb in place (Docker resizes a running box).
func TestAccSandbox_resize(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox")
	sameID := statecheck.CompareValue(compare.ValuesSame())
	memory := func(mb int64) resource.TestCheckFunc {
		return sandboxAccContainer(t, func(ctx context.Context, api *client.Client, id string) error {
			c, err := api.ContainerInspect(ctx, id)
			if err != nil {
				return err
			}
			if got := c.HostConfig.Memory; got != mb*1024*1024 {
				return fmt.Errorf("container memory = %d bytes, want %d MiB", got, mb)
			}
			return nil
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config: sandboxAccConfig(t, name, "running", "memory_mb = 64"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(sandboxAccAddr, tfjsonpath.New("id"))},
				Check:             memory(64),
			},
			{
				Config: sandboxAccConfig(t, name, "running", "memory_mb = 96"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(sandboxAccAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("memory_mb"), knownvalue.Int64Exact(96)),
				},
				Check: memory(96),
			},
			{
				ResourceName:            sandboxAccAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: sandboxAccImportIgnore,
			},
		},
	})
}

// TestAccSandbox_disappears removes the container behind Terraform's back:
// the refresh drops it from state with a warning and plans a create.
func TestAccSandbox_disappears(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config: sandboxAccConfig(t, name, "running", ""),
				Check: sandboxAccContainer(t, func(ctx context.Context, api *client.Client, id string) error {
					return api.ContainerRemove(ctx, id, container.RemoveOptions{Force: true})
				}),
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionCreate)},
				},
			},
			{
				// Applying again makes a new box under the same name.
				Config: sandboxAccConfig(t, name, "running", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: sandboxAccCheckContainer(t, "running"),
			},
		},
	})
}

// TestAccSandbox_outOfBandPause pauses the box with the engine directly:
// the plan is an in-place update back to running, never a replacement.
func TestAccSandbox_outOfBandPause(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox")
	sameID := statecheck.CompareValue(compare.ValuesSame())
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy:             sandboxAccCheckDestroy(t, name),
		Steps: []resource.TestStep{
			{
				Config:            sandboxAccConfig(t, name, "running", ""),
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(sandboxAccAddr, tfjsonpath.New("id"))},
				Check: sandboxAccContainer(t, func(ctx context.Context, api *client.Client, id string) error {
					return api.ContainerPause(ctx, id)
				}),
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("state"), knownvalue.StringExact("running")),
						plancheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("status"), knownvalue.StringExact("running")),
					},
				},
			},
			{
				Config: sandboxAccConfig(t, name, "running", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{sameID.AddStateValue(sandboxAccAddr, tfjsonpath.New("id"))},
				Check:             sandboxAccCheckContainer(t, "running"),
			},
		},
	})
}

// TestAccSandbox_envAndVolumeMount starts the agent with a secret env and a
// mounted volume; the agent writes the file AGENT_FILES names into the
// volume, and the file is read back through the engine.
func TestAccSandbox_envAndVolumeMount(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox")
	config := sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
resource "sbx_volume" "v" {
  name = %[1]q
}

resource "sbx_sandbox" "test" {
  name        = %[1]q
  template_id = sbx_template.t.id
  env = {
    AGENT_FILES = "/data/hello.txt=hello from %[1]s"
    API_TOKEN   = "not-a-real-secret"
  }
  volume_mount {
    volume_id = sbx_volume.v.id
    path      = "/data"
  }
}
`, name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy: resource.ComposeTestCheckFunc(
			sandboxAccCheckDestroy(t, name),
			volumeAccCheckDestroy(t, name),
		),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectSensitiveValue(sandboxAccAddr, tfjsonpath.New("env")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(sandboxAccAddr, tfjsonpath.New("volume_mount"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"volume_id": knownvalue.StringExact(name),
							"path":      knownvalue.StringExact("/data"),
							"read_only": knownvalue.Bool(false),
							"subpath":   knownvalue.Null(),
						}),
					})),
				},
				Check: sandboxAccContainer(t, func(ctx context.Context, api *client.Client, id string) error {
					got, err := sandboxAccReadFile(ctx, api, id, "/data/hello.txt")
					if err != nil {
						return err
					}
					if want := "hello from " + name; got != want {
						return fmt.Errorf("/data/hello.txt = %q, want %q", got, want)
					}
					return nil
				}),
			},
			{
				// The refresh records the mount on the volume too.
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.CompareValuePairs("sbx_volume.v", tfjsonpath.New("attached_to").AtSliceIndex(0),
						sandboxAccAddr, tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue("sbx_volume.v", tfjsonpath.New("state"), knownvalue.StringExact("attached")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// env is read back on import (the container's variables that
				// differ from its image's), so it verifies like the rest.
				ResourceName:            sandboxAccAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: sandboxAccImportIgnore,
			},
			{
				// An import {} block with the same env config plans no change,
				// not a replacement.
				Config:          config,
				ResourceName:    sandboxAccAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
		},
	})
}

// TestAccSandbox_validation checks every bad input is a plan-time error
// naming the attribute and the value. Nothing is created.
func TestAccSandbox_validation(t *testing.T) {
	acctest.RequireDocker(t)
	box := func(body string) string {
		return fmt.Sprintf("resource \"sbx_sandbox\" \"test\" {\n%s\n}\n", body)
	}
	tests := []struct {
		name   string
		config string
		want   string
	}{
		{"unknown state", box(`template_id = "x"
state = "hibernating"`), `(?s)state.*value must be one of.*"running".*"paused".*"stopped".*got: "hibernating"`},
		{"memory below minimum", box(`template_id = "x"
memory_mb = 4`), `(?s)memory_mb = 4 is below the minimum of 6 on docker`},
		{"relative mount path", box(`template_id = "x"
volume_mount {
  volume_id = "v"
  path      = "data"
}`), `(?s)volume_mount\[0\]\.path = "data" is not an absolute path`},
		{"two mounts on one path", box(`template_id = "x"
volume_mount {
  volume_id = "v1"
  path      = "/data"
}
volume_mount {
  volume_id = "v2"
  path      = "/data"
}`), `(?s)volume_mount\[0\]\.path and volume_mount\[1\]\.path both mount at\s+"/data"`},
		{"disk_mb on docker", box(`template_id = "x"
disk_mb = 1024`), `(?s)disk_mb = 1024 is not supported on docker`},
		{"template and snapshot", box(`template_id = "x"
from_snapshot_id = "y"`), `(?s)Invalid Attribute Combination.*template_id.*from_snapshot_id`},
		{"neither template nor snapshot", box(`state = "running"`), `(?s)Exactly one of these attributes must be configured`},
		{"bad name", box(`template_id = "x"
name = "-nope"`), `(?s)name.*must be 1-63 characters`},
		{"reserved label", box(`template_id = "x"
labels = { "sbx.terraform.managed" = "false" }`), `(?s)reserved for labels the provider sets`},
	}
	steps := make([]resource.TestStep, 0, len(tests))
	for _, tt := range tests {
		steps = append(steps, resource.TestStep{
			Config:      tt.config,
			PlanOnly:    true,
			ExpectError: acctest.ErrorPattern(tt.want),
		})
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		Steps:                    steps,
	})
}

// sandboxAccIgnoreNotFound treats an engine "not found" as done.
func sandboxAccIgnoreNotFound(err error) error {
	if err == nil || strings.Contains(strings.ToLower(err.Error()), "no such") {
		return nil
	}
	var nf interface{ NotFound() }
	if errors.As(err, &nf) {
		return nil
	}
	return err
}

// TestAccSandbox_createNotRunning creates one box stopped (a container
// never started: started_at null) and one paused, and destroys both as
// they are: a delete kills a box in any state.
func TestAccSandbox_createNotRunning(t *testing.T) {
	acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-sandbox")
	config := sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
resource "sbx_sandbox" "stopped" {
  name        = "%[1]s-stopped"
  template_id = sbx_template.t.id
  state       = "stopped"
}

resource "sbx_sandbox" "paused" {
  name        = "%[1]s-paused"
  template_id = sbx_template.t.id
  state       = "paused"
}
`, name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		PreCheck:                 func() { testAccPreCheck(t) },
		CheckDestroy: resource.ComposeTestCheckFunc(
			sandboxAccCheckDestroy(t, name+"-stopped"),
			sandboxAccCheckDestroy(t, name+"-paused"),
		),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("sbx_sandbox.stopped", tfjsonpath.New("status"), knownvalue.StringExact("stopped")),
					statecheck.ExpectKnownValue("sbx_sandbox.stopped", tfjsonpath.New("started_at"), knownvalue.Null()),
					statecheck.ExpectKnownValue("sbx_sandbox.paused", tfjsonpath.New("status"), knownvalue.StringExact("paused")),
					statecheck.ExpectKnownValue("sbx_sandbox.paused", tfjsonpath.New("started_at"), knownvalue.NotNull()),
				},
			},
		},
	})
}

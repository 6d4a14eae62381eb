package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// ownershipAccName is a fresh object name for one test.
func ownershipAccName(prefix string) string {
	return sdkacctest.RandomWithPrefix("tf-acc-" + prefix)
}

// ownershipAccVolumeToken returns the create token on the Docker volume
// called name, failing when it is gone: who made it, and that it survived.
func ownershipAccVolumeToken(t *testing.T, name string) string {
	t.Helper()
	v, err := acctest.DockerClient(t).VolumeInspect(context.Background(), name)
	if err != nil {
		t.Fatalf("volume %s: %v", name, err)
	}
	return v.Labels[platform.LabelCreateToken]
}

// A volume another state manages is never taken over by a second
// configuration declaring the same name: its create fails naming the volume
// and the import command, and its destroy leaves the first state's volume
// (and its data) alone.
func TestAccOwnership_volumeOfAnotherState(t *testing.T) {
	acctest.RequireDocker(t) // before the second state applies on it
	name := ownershipAccName("owned")
	first := acctest.NewOtherState(t, New("test"))
	first.Apply(fmt.Sprintf("resource \"sbx_volume\" \"a\" {\n  name = %q\n}\n", name))
	token := ownershipAccVolumeToken(t, name)
	if token == "" {
		t.Fatalf("volume %s carries no create token", name)
	}

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf("resource \"sbx_volume\" \"b\" {\n  name = %q\n}\n", name),
			ExpectError: acctest.ErrorPattern(fmt.Sprintf(`(?s)a volume named "%s" already exists and this create did not make it .*`+
				`terraform import <this resource's address> %s`, name, name)),
		}},
		// The second configuration's destroy ran: the first state's volume is untouched.
		CheckDestroy: func(*terraform.State) error {
			if got := ownershipAccVolumeToken(t, name); got != token {
				return fmt.Errorf("volume %s now carries create token %q, want the first state's %q", name, got, token)
			}
			return nil
		},
	})
	if got := first.Attr("sbx_volume.a", "id"); got != name {
		t.Errorf("the first state holds volume %q, want %q", got, name)
	}
}

// A named sandbox another state manages is not taken over either, and
// its container keeps running after the second configuration is destroyed.
func TestAccOwnership_namedSandboxOfAnotherState(t *testing.T) {
	acctest.RequireDocker(t) // before the second state applies on it
	name := ownershipAccName("box")
	first := acctest.NewOtherState(t, New("test"))
	first.Apply(sandboxAccConfig(t, name+"-first", "running", "") + fmt.Sprintf(`
resource "sbx_sandbox" "named" {
  name        = %q
  template_id = sbx_template.t.id
}
`, name))
	boxID := first.Attr("sbx_sandbox.named", "id")

	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: sandboxAccTemplateHCL(t, name+"-second") + fmt.Sprintf(`
resource "sbx_sandbox" "named" {
  name        = %q
  template_id = sbx_template.t.id
}
`, name),
			ExpectError: acctest.ErrorPattern(fmt.Sprintf(`(?s)a sandbox named "%s" already exists and this create did not make it .*%s`, name, boxID)),
		}},
		CheckDestroy: func(*terraform.State) error {
			c, err := acctest.DockerClient(t).ContainerInspect(context.Background(), boxID)
			if err != nil {
				return fmt.Errorf("the first state's box %s: %w", boxID, err)
			}
			if !c.State.Running {
				return fmt.Errorf("the first state's box %s is %s, want running", boxID, c.State.Status)
			}
			return nil
		},
	})
}

// Two resources of one configuration with the same name are a plan-time
// error: nothing is created.
func TestAccOwnership_duplicateNamesInOneConfiguration(t *testing.T) {
	acctest.RequireDocker(t)
	name := ownershipAccName("dup")
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
resource "sbx_volume" "a" {
  name = %q
}

resource "sbx_volume" "b" {
  name = %q
}
`, name, name),
			PlanOnly:    true,
			ExpectError: acctest.ErrorPattern(fmt.Sprintf(`Another sbx_volume in this configuration also has name = "%s"`, name)),
		}, {
			// Named boxes too, including through count with a constant name.
			Config: sandboxAccTemplateHCL(t, name) + fmt.Sprintf(`
resource "sbx_sandbox" "s" {
  count       = 2
  name        = %q
  template_id = sbx_template.t.id
}
`, name),
			PlanOnly:    true,
			ExpectError: acctest.ErrorPattern(fmt.Sprintf(`Another sbx_sandbox in this configuration also has name = "%s"`, name)),
		}, {
			Config: fmt.Sprintf(`
resource "sbx_template" "a" {
  name       = %q
  dockerfile = "FROM scratch\nLABEL a=1\n"
}

resource "sbx_template" "b" {
  name       = %q
  dockerfile = "FROM scratch\nLABEL b=1\n"
}
`, name, name),
			PlanOnly:    true,
			ExpectError: acctest.ErrorPattern(fmt.Sprintf(`Another sbx_template in this configuration also has name = "%s"`, name)),
		}},
		CheckDestroy: func(*terraform.State) error {
			if _, err := acctest.DockerClient(t).VolumeInspect(context.Background(), name); err == nil {
				return fmt.Errorf("volume %s exists: the duplicate names were not stopped at plan time", name)
			}
			return sandboxAccCheckDestroy(t, name)(nil)
		},
	})
}

// A replacement of a named object is not a duplicate: Terraform plans the
// replaced instance twice (with its prior state, then as a create), and
// both plans are the one resource's.
func TestAccOwnership_replacementIsNotADuplicate(t *testing.T) {
	acctest.RequireDocker(t)
	name := ownershipAccName("repl")
	cfg := func(label string) string {
		return sandboxAccConfig(t, name, "running", fmt.Sprintf("  env = { MARK = %q }\n", label))
	}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: cfg("one"),
		}, {
			// env changes replace a Docker box; the same name is planned
			// twice for the one instance (prior, then as a create).
			Config: cfg("two"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(sandboxAccAddr, plancheck.ResourceActionDestroyBeforeCreate)},
			},
		}},
		CheckDestroy: sandboxAccCheckDestroy(t, name),
	})
}

// Docker keeps container names unique, so a create_before_destroy
// replacement of a named box cannot make the new box first: a clear error
// saying so, and the old box keeps running.
func TestAccOwnership_createBeforeDestroyNamedBoxOnDocker(t *testing.T) {
	acctest.RequireDocker(t)
	name := ownershipAccName("cbd")
	cfg := func(label string) string {
		return sandboxAccConfig(t, name, "running", fmt.Sprintf("  env = { MARK = %q }\n  lifecycle {\n    create_before_destroy = true\n  }\n", label))
	}
	var oldID string
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: cfg("one"),
			Check: func(s *terraform.State) (err error) {
				oldID, err = acctest.ResourceID(s, sandboxAccAddr)
				return err
			},
		}, {
			Config:      cfg("two"),
			ExpectError: acctest.ErrorPattern(`create_before_destroy replacement: Docker keeps container names unique, so the new box cannot be made before the old one is gone`),
		}, {
			Config: cfg("one"),
			Check: func(s *terraform.State) error {
				id, err := acctest.ResourceID(s, sandboxAccAddr)
				if err != nil {
					return err
				}
				if id != oldID {
					return fmt.Errorf("state holds box %s, want the old box %s", id, oldID)
				}
				list, err := acctest.DockerClient(t).ContainerList(context.Background(), container.ListOptions{All: true,
					Filters: filters.NewArgs(filters.Arg("label", platform.LabelName+"="+name))})
				if err != nil {
					return err
				}
				if len(list) != 1 || list[0].State != "running" {
					return fmt.Errorf("%d boxes named %s (want the one old box, running)", len(list), name)
				}
				return nil
			},
		}},
		CheckDestroy: sandboxAccCheckDestroy(t, name),
	})
}

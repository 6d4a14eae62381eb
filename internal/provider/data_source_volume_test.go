package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/docker/docker/api/types/volume"
	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func volumeDataSourceTestPlatform() *dataSourceFakePlatform {
	created := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	return &dataSourceFakePlatform{volumes: []platform.Volume{
		// made outside Terraform (docker volume create data)
		{ID: "v-data", Name: "data", State: "available", CreatedAt: created, Labels: map[string]string{"owner": "ops"}},
		// listed too by a prefix search for "data"
		{ID: "v-data-old", Name: "data-old", State: "available", CreatedAt: created},
		{ID: "v-managed", Name: "cache", SizeGB: 10, Region: "ord", State: "attached", CreatedAt: created, Managed: true,
			AttachedTo: []string{"box-1", "box-2"},
			Labels:     map[string]string{"team": "ml", platform.LabelManaged: "true", platform.LabelName: "cache"}},
		{ID: "v-dup-1", Name: "dup"},
		{ID: "v-dup-2", Name: "dup"},
	}}
}

func TestVolumeDataSource_fake(t *testing.T) {
	acctest.RequireTerraform(t) // the terraform CLI against an in-process fake platform; no Docker
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dataSourceFakeFactories(volumeDataSourceTestPlatform(), time.Time{}),
		Steps: []resource.TestStep{
			{
				Config: `
data "sbx_volume" "unmanaged" { name = "data" }
data "sbx_volume" "by_id" { id = "v-managed" }
`,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.sbx_volume.unmanaged", "id", "v-data"),
					resource.TestCheckResourceAttr("data.sbx_volume.unmanaged", "managed", "false"),
					resource.TestCheckResourceAttr("data.sbx_volume.unmanaged", "state", "available"),
					resource.TestCheckResourceAttr("data.sbx_volume.unmanaged", "created_at", "2025-03-04T05:06:07Z"),
					resource.TestCheckResourceAttr("data.sbx_volume.unmanaged", "labels.owner", "ops"),
					resource.TestCheckResourceAttr("data.sbx_volume.unmanaged", "attached_to.#", "0"),
					resource.TestCheckNoResourceAttr("data.sbx_volume.unmanaged", "size_gb"),
					resource.TestCheckNoResourceAttr("data.sbx_volume.unmanaged", "region"),

					resource.TestCheckResourceAttr("data.sbx_volume.by_id", "name", "cache"),
					resource.TestCheckResourceAttr("data.sbx_volume.by_id", "managed", "true"),
					resource.TestCheckResourceAttr("data.sbx_volume.by_id", "size_gb", "10"),
					resource.TestCheckResourceAttr("data.sbx_volume.by_id", "region", "ord"),
					resource.TestCheckResourceAttr("data.sbx_volume.by_id", "attached_to.#", "2"),
					resource.TestCheckResourceAttr("data.sbx_volume.by_id", "attached_to.1", "box-2"),
					resource.TestCheckResourceAttr("data.sbx_volume.by_id", "labels.%", "1"),
				),
			},
			{
				Config:      `data "sbx_volume" "x" { name = "dup" }`,
				ExpectError: regexp.MustCompile(`2 volumes are named "dup" \(ids v-dup-1, v-dup-2\)`),
			},
			{
				Config:      `data "sbx_volume" "x" { name = "missing" }`,
				ExpectError: regexp.MustCompile(`no volume named "missing" was found on the platform`),
			},
			{
				Config:      `data "sbx_volume" "x" { id = "v-missing" }`,
				ExpectError: regexp.MustCompile(`No volume with id "v-missing" exists on fake`),
			},
			{
				Config:      `data "sbx_volume" "x" {}`,
				ExpectError: regexp.MustCompile(`(?s)Missing Attribute Configuration.*id.*name`),
			},
			{
				Config: `data "sbx_volume" "x" {
  id   = "v-data"
  name = "data"
}`,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination`),
			},
			{
				Config: `data "sbx_volume" "x" { name = "data-old" }`,
				Check:  resource.TestCheckResourceAttr("data.sbx_volume.x", "id", "v-data-old"),
			},
		},
	})
}

// A volume made outside Terraform (`docker volume create`) is found by name
// and by id, reported as unmanaged, and can then be imported with an
// `import {}` block whose id comes from the data source.
func TestAccVolumeDataSource_unmanagedThenImport(t *testing.T) {
	api := acctest.RequireDocker(t)
	name := sdkacctest.RandomWithPrefix("tf-acc-unmanaged")
	if _, err := api.VolumeCreate(context.Background(), volume.CreateOptions{Name: name, Labels: map[string]string{"owner": "ops"}}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = api.VolumeRemove(context.Background(), name, true) })

	lookups := fmt.Sprintf(`
data "sbx_volume" "by_name" { name = %q }
data "sbx_volume" "by_id" { id = data.sbx_volume.by_name.id }
`, name)
	adopt := lookups + fmt.Sprintf(`
import {
  to = sbx_volume.adopted
  id = data.sbx_volume.by_name.id
}
resource "sbx_volume" "adopted" {
  name   = %q
  labels = { owner = "ops" }
}
`, name)
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if _, err := api.VolumeInspect(context.Background(), name); err == nil {
				return fmt.Errorf("volume %s still exists after destroy", name)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: lookups,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.sbx_volume.by_name", "id", name),
					resource.TestCheckResourceAttr("data.sbx_volume.by_name", "managed", "false"),
					resource.TestCheckResourceAttr("data.sbx_volume.by_name", "labels.%", "1"),
					resource.TestCheckResourceAttr("data.sbx_volume.by_name", "labels.owner", "ops"),
					resource.TestCheckResourceAttr("data.sbx_volume.by_name", "attached_to.#", "0"),
					resource.TestCheckResourceAttrSet("data.sbx_volume.by_name", "created_at"),
					resource.TestCheckResourceAttrSet("data.sbx_volume.by_name", "state"),
					resource.TestCheckNoResourceAttr("data.sbx_volume.by_name", "size_gb"),
					resource.TestCheckResourceAttr("data.sbx_volume.by_id", "name", name),
					resource.TestCheckResourceAttr("data.sbx_volume.by_id", "managed", "false"),
				),
			},
			{
				Config: adopt,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sbx_volume.adopted", plancheck.ResourceActionNoop)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("sbx_volume.adopted", "id", name),
					resource.TestCheckResourceAttr("sbx_volume.adopted", "labels.owner", "ops"),
				),
			},
		},
	})
}

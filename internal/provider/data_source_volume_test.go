package provider

import (
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

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
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dataSourceFakeFactories(volumeDataSourceTestPlatform()),
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

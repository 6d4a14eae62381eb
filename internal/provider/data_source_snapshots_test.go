package provider

import (
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

func TestSnapshotsDataSource_fake(t *testing.T) {
	acctest.RequireTerraform(t) // the terraform CLI against an in-process fake platform; no Docker
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dataSourceFakeFactories(snapshotDataSourceTestPlatform(), snapshotDataSourceTestBase.Add(10*time.Hour)),
		Steps: []resource.TestStep{
			{
				Config: `
data "sbx_snapshots" "all" {}
data "sbx_snapshots" "with_expired" { include_expired = true }
data "sbx_snapshots" "ml" {
  labels     = { team = "ml" }
  name_regex = "-[12]$"
}
data "sbx_snapshots" "by_box" { sandbox_id = "box-1" }
data "sbx_snapshots" "none" { name = "nothing-has-this-name" }
`,
				Check: resource.ComposeAggregateTestCheckFunc(
					// newest first; the expired one left out
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "ids.#", "3"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "ids.0", "snap-v1"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "ids.1", "snap-a2"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "ids.2", "snap-a1"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "snapshots.#", "3"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "snapshots.0.id", "snap-v1"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "snapshots.0.kind", "volume"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "snapshots.0.volume_id", "vol-1"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "snapshots.0.expires_at", "2025-06-05T04:00:00Z"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "snapshots.1.parent_snapshot_id", "snap-a1"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "snapshots.1.size_bytes", "200"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "snapshots.1.created_at", "2025-06-01T02:00:00Z"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "snapshots.2.name", "nightly-1"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "snapshots.2.labels.%", "2"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "snapshots.2.labels.env", "dev"),

					resource.TestCheckResourceAttr("data.sbx_snapshots.with_expired", "ids.#", "4"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.with_expired", "ids.3", "snap-old"),

					resource.TestCheckResourceAttr("data.sbx_snapshots.ml", "ids.#", "2"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.ml", "ids.0", "snap-a2"),

					resource.TestCheckResourceAttr("data.sbx_snapshots.by_box", "ids.#", "2"),

					// none is an empty list, not an error
					resource.TestCheckResourceAttr("data.sbx_snapshots.none", "ids.#", "0"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.none", "snapshots.#", "0"),
				),
			},
			{
				Config:      `data "sbx_snapshots" "x" { name_regex = "(" }`,
				ExpectError: regexp.MustCompile(`(?s)Invalid regular expression.*name_regex`),
			},
			{
				Config: `data "sbx_snapshots" "x" { volume_id = "vol-1" }`,
				Check:  resource.TestCheckResourceAttr("data.sbx_snapshots.x", "ids.0", "snap-v1"),
			},
		},
	})
}

// Without creation times the list keeps the platform's listing order (the
// documented behaviour), and sizes are null rather than 0.
func TestSnapshotsDataSource_noCreationTime(t *testing.T) {
	acctest.RequireTerraform(t) // the terraform CLI against an in-process fake platform; no Docker
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dataSourceFakeFactories(snapshotDataSourceUntimedPlatform(), snapshotDataSourceTestBase),
		Steps: []resource.TestStep{
			{
				Config: `data "sbx_snapshots" "all" {}`,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "ids.#", "3"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "ids.0", "snap-b"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "ids.1", "snap-a"),
					resource.TestCheckResourceAttr("data.sbx_snapshots.all", "ids.2", "snap-c"),
					resource.TestCheckNoResourceAttr("data.sbx_snapshots.all", "snapshots.0.size_bytes"),
					resource.TestCheckNoResourceAttr("data.sbx_snapshots.all", "snapshots.0.created_at"),
				),
			},
		},
	})
}

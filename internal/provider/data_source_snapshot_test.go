package provider

import (
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

var snapshotDataSourceTestBase = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

// snapshotDataSourceTestPlatform: at base+10h, "nightly-0" has expired and
// "vol-weekly" expires at base+100h.
func snapshotDataSourceTestPlatform() *dataSourceFakePlatform {
	b := snapshotDataSourceTestBase
	return &dataSourceFakePlatform{caps: platform.Capabilities{SnapshotCreatedAt: true, SnapshotSize: true, SnapshotListsBySource: true, SnapshotNames: true}, snapshots: []platform.Snapshot{
		{ID: "snap-a1", Name: "nightly-1", Kind: platform.SnapshotFilesystem, SandboxID: "box-1", SizeBytes: 100, CreatedAt: b.Add(1 * time.Hour),
			Labels: map[string]string{"team": "ml", "env": "dev", platform.LabelManaged: "true"}},
		{ID: "snap-a2", Name: "nightly-2", Kind: platform.SnapshotFilesystem, SandboxID: "box-1", ParentSnapshotID: "snap-a1", SizeBytes: 200,
			CreatedAt: b.Add(2 * time.Hour), Labels: map[string]string{"team": "ml"}},
		{ID: "snap-v1", Name: "vol-weekly", Kind: platform.SnapshotVolume, VolumeID: "vol-1", CreatedAt: b.Add(3 * time.Hour),
			ExpiresAt: b.Add(100 * time.Hour), Labels: map[string]string{"team": "web"}},
		{ID: "snap-old", Name: "nightly-0", Kind: platform.SnapshotFilesystem, SandboxID: "box-2", CreatedAt: b, ExpiresAt: b.Add(5 * time.Hour),
			Labels: map[string]string{"team": "ml"}},
	}}
}

func TestSnapshotDataSource_fake(t *testing.T) {
	acctest.RequireTerraform(t) // the terraform CLI against an in-process fake platform; no Docker
	fake := snapshotDataSourceTestPlatform()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dataSourceFakeFactories(fake, snapshotDataSourceTestBase.Add(10*time.Hour)),
		Steps: []resource.TestStep{
			{
				Config: `
data "sbx_snapshot" "by_id" { id = "snap-a2" }
data "sbx_snapshot" "by_name" { name = "nightly-1" }
data "sbx_snapshot" "by_label_subset" { labels = { env = "dev" } }
data "sbx_snapshot" "recent" {
  labels      = { team = "ml" }
  most_recent = true
}
data "sbx_snapshot" "regex" {
  name_regex  = "^nightly-"
  sandbox_id  = "box-1"
  most_recent = true
}
data "sbx_snapshot" "volume" { volume_id = "vol-1" }
data "sbx_snapshot" "expired" {
  name            = "nightly-0"
  include_expired = true
}
`,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.sbx_snapshot.by_id", "name", "nightly-2"),
					resource.TestCheckResourceAttr("data.sbx_snapshot.by_id", "kind", "filesystem"),
					resource.TestCheckResourceAttr("data.sbx_snapshot.by_id", "sandbox_id", "box-1"),
					resource.TestCheckNoResourceAttr("data.sbx_snapshot.by_id", "volume_id"),
					resource.TestCheckResourceAttr("data.sbx_snapshot.by_id", "parent_snapshot_id", "snap-a1"),
					resource.TestCheckResourceAttr("data.sbx_snapshot.by_id", "size_bytes", "200"),
					resource.TestCheckResourceAttr("data.sbx_snapshot.by_id", "created_at", "2025-06-01T02:00:00Z"),
					resource.TestCheckNoResourceAttr("data.sbx_snapshot.by_id", "expires_at"),
					resource.TestCheckResourceAttr("data.sbx_snapshot.by_id", "labels.%", "1"),

					resource.TestCheckResourceAttr("data.sbx_snapshot.by_name", "id", "snap-a1"),
					// reserved labels are not user labels
					resource.TestCheckResourceAttr("data.sbx_snapshot.by_name", "labels.%", "2"),
					resource.TestCheckResourceAttr("data.sbx_snapshot.by_name", "labels.team", "ml"),

					// a labels filter returns all of the snapshot's labels
					resource.TestCheckResourceAttr("data.sbx_snapshot.by_label_subset", "id", "snap-a1"),
					resource.TestCheckResourceAttr("data.sbx_snapshot.by_label_subset", "labels.%", "2"),

					// snap-old matches too but has expired
					resource.TestCheckResourceAttr("data.sbx_snapshot.recent", "id", "snap-a2"),
					resource.TestCheckResourceAttr("data.sbx_snapshot.regex", "id", "snap-a2"),

					resource.TestCheckResourceAttr("data.sbx_snapshot.volume", "id", "snap-v1"),
					resource.TestCheckResourceAttr("data.sbx_snapshot.volume", "kind", "volume"),
					resource.TestCheckNoResourceAttr("data.sbx_snapshot.volume", "sandbox_id"),
					resource.TestCheckResourceAttr("data.sbx_snapshot.volume", "expires_at", "2025-06-05T04:00:00Z"),

					resource.TestCheckResourceAttr("data.sbx_snapshot.expired", "id", "snap-old"),
					resource.TestCheckResourceAttr("data.sbx_snapshot.expired", "expires_at", "2025-06-01T05:00:00Z"),
				),
			},
			{
				Config:      `data "sbx_snapshot" "x" { labels = { team = "ml" } }`,
				ExpectError: regexp.MustCompile(`(?s)2 snapshots matched.*most_recent = true`),
			},
			{
				Config:      `data "sbx_snapshot" "x" { name = "nightly-0" }`,
				ExpectError: regexp.MustCompile(`(?s)no snapshot matched.*name = "nightly-0".*include_expired = false`),
			},
			{
				Config:      `data "sbx_snapshot" "x" { id = "snap-nope" }`,
				ExpectError: regexp.MustCompile(`No snapshot with id "snap-nope" exists on fake`),
			},
			{
				Config:      `data "sbx_snapshot" "x" { name_regex = "nightly-[" }`,
				ExpectError: regexp.MustCompile(`(?s)name_regex = "nightly-\[" is not a valid Go.*missing closing \]`),
			},
			{
				Config: `data "sbx_snapshot" "x" {
  id   = "snap-a1"
  name = "nightly-1"
}`,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*id.*name`),
			},
			{
				Config:      `data "sbx_snapshot" "x" { labels = { "sbx.terraform.kind" = "snapshot" } }`,
				ExpectError: regexp.MustCompile(`Reserved label key`),
			},
			{
				// ends on a valid configuration, which the final destroy needs
				Config: `data "sbx_snapshot" "x" { id = "snap-a1" }`,
				Check:  resource.TestCheckResourceAttr("data.sbx_snapshot.x", "name", "nightly-1"),
			},
		},
	})
	if fake.lastSnapshotFilter.Labels["sbx.terraform.kind"] != "" {
		t.Fatal("a rejected filter reached the platform")
	}
}

// Time moves through the injectable clock: once vol-weekly's deadline has
// passed it is no longer found unless include_expired is set.
func TestSnapshotDataSource_fakeClockExpiry(t *testing.T) {
	acctest.RequireTerraform(t) // the terraform CLI against an in-process fake platform; no Docker
	at := snapshotDataSourceTestBase.Add(200 * time.Hour)
	fake := snapshotDataSourceTestPlatform()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dataSourceFakeFactories(fake, at),
		Steps: []resource.TestStep{
			{
				Config:      `data "sbx_snapshot" "x" { volume_id = "vol-1" }`,
				ExpectError: regexp.MustCompile(`no snapshot matched the filters: volume_id = "vol-1"`),
			},
			{
				Config: `data "sbx_snapshot" "x" {
  volume_id       = "vol-1"
  include_expired = true
}`,
				Check: resource.TestCheckResourceAttr("data.sbx_snapshot.x", "id", "snap-v1"),
			},
		},
	})
	if fake.lastSnapshotFilter.VolumeID != "vol-1" {
		t.Fatalf("the volume_id filter did not reach the platform: %+v", fake.lastSnapshotFilter)
	}
}

// snapshotDataSourceUntimedPlatform reports snapshots as some platforms
// do: memory snapshots, with no creation time and no size. It lists "ckpt-b" before "ckpt-a" before "ckpt-c".
func snapshotDataSourceUntimedPlatform() *dataSourceFakePlatform {
	caps := platform.Capabilities{SnapshotNames: true, Attributes: platform.Attributes{
		platform.AttrSnapshotSandboxID:     {Support: platform.Replace},
		platform.AttrSnapshotIncludeMemory: {Support: platform.Replace, Values: []string{"true"}},
	}}
	return &dataSourceFakePlatform{caps: caps, snapshots: []platform.Snapshot{
		{ID: "snap-b", Name: "ckpt-b", Kind: platform.SnapshotMemory},
		{ID: "snap-a", Name: "ckpt-a", Kind: platform.SnapshotMemory},
		{ID: "snap-c", Name: "other", Kind: platform.SnapshotMemory},
	}}
}

// Where the platform cannot list a source's snapshots (it records no
// source: Daytona), sandbox_id and volume_id are an error naming the
// filter, on both data sources, never an empty answer read as "none".
func TestSnapshotDataSource_sourceNotListed(t *testing.T) {
	acctest.RequireTerraform(t) // the terraform CLI against an in-process fake platform; no Docker
	fake := snapshotDataSourceUntimedPlatform()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dataSourceFakeFactories(fake, snapshotDataSourceTestBase),
		Steps: []resource.TestStep{
			{
				Config:      `data "sbx_snapshot" "x" { sandbox_id = "box-1" }`,
				ExpectError: regexp.MustCompile(`(?s)sandbox_id is not supported on fake.*sandbox_id = "box-1": fake does not\s+record`),
			},
			{
				Config:      `data "sbx_snapshots" "x" { volume_id = "vol-1" }`,
				ExpectError: regexp.MustCompile(`(?s)volume_id is not supported on fake.*Find the snapshot by\s+name or\s+name_regex`),
			},
		},
	})
}

// Where the platform's snapshots have no name (Fly), name and name_regex
// are an error naming the filter, never "no snapshot matched".
func TestSnapshotDataSource_noNames(t *testing.T) {
	acctest.RequireTerraform(t) // the terraform CLI against an in-process fake platform; no Docker
	fake := snapshotDataSourceUntimedPlatform()
	fake.caps.SnapshotNames = false
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dataSourceFakeFactories(fake, snapshotDataSourceTestBase),
		Steps: []resource.TestStep{
			{
				Config:      `data "sbx_snapshot" "x" { name = "ckpt-a" }`,
				ExpectError: regexp.MustCompile(`(?s)name is not supported on fake.*fake snapshots have no name`),
			},
			{
				Config:      `data "sbx_snapshots" "x" { name_regex = "^ckpt-" }`,
				ExpectError: regexp.MustCompile(`(?s)name_regex is not supported on fake.*volume_id or sandbox_id`),
			},
		},
	})
}

// Where the platform does not report when a snapshot was made, most_recent
// cannot be honoured: a plan-time error naming the attribute, never a
// silent pick by listing order. size_bytes and created_at read as null.
func TestSnapshotDataSource_noCreationTime(t *testing.T) {
	acctest.RequireTerraform(t) // the terraform CLI against an in-process fake platform; no Docker
	fake := snapshotDataSourceUntimedPlatform()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: dataSourceFakeFactories(fake, snapshotDataSourceTestBase),
		Steps: []resource.TestStep{
			{
				Config: `data "sbx_snapshot" "x" {
  name_regex  = "^ckpt-"
  most_recent = true
}`,
				ExpectError: regexp.MustCompile(`(?s)most_recent.*most_recent = true: fake does not report when a\s+snapshot was made`),
			},
			{
				// even a single match: the setting itself cannot be honoured
				Config: `data "sbx_snapshot" "x" {
  name        = "other"
  most_recent = true
}`,
				ExpectError: regexp.MustCompile(`most_recent is not supported on fake`),
			},
			{
				// several matches: the advice is to narrow, not most_recent
				Config:      `data "sbx_snapshot" "x" { name_regex = "^ckpt-" }`,
				ExpectError: regexp.MustCompile(`(?s)2 snapshots matched.*snap-b, snap-a.*most_recent cannot choose.*narrow the filters`),
			},
			{
				Config: `data "sbx_snapshot" "x" { name = "ckpt-a" }`,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("data.sbx_snapshot.x", "id", "snap-a"),
					resource.TestCheckNoResourceAttr("data.sbx_snapshot.x", "size_bytes"),
					resource.TestCheckNoResourceAttr("data.sbx_snapshot.x", "created_at"),
				),
			},
		},
	})
}

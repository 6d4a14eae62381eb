package platformtest

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// testLifecycle: a template, a volume and a sandbox mounting it are created,
// the sandbox's agent writes into the volume, the next plan is empty, and
// destroy removes all three from the platform.
func testLifecycle(t *testing.T, h harness) {
	r := newRun(h)
	var tplID, volID, boxID string
	token := "hello-" + r.name
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy: goneFromPlatform(t, h, map[string]*string{
			KindSandbox: &boxID, KindVolume: &volID, KindTemplate: &tplID,
		}),
		Steps: []resource.TestStep{{
			Config: r.config(r.template(), r.volume("v"), r.sandbox("s",
				agentFiles("/data/hello.txt", token),
				"  volume_mount {\n    volume_id = sbx_volume.v.id\n    path = \"/data\"\n  }")),
			ConfigPlanChecks: emptyPlanAfterApply(),
			Check: resource.ComposeAggregateTestCheckFunc(
				captureID("sbx_template.t", &tplID),
				captureID("sbx_volume.v", &volID),
				captureID("sbx_sandbox.s", &boxID),
				resource.TestCheckResourceAttrSet("sbx_template.t", "build_id"),
				resource.TestCheckResourceAttrSet("sbx_template.t", "created_at"),
				reportedIsSet(h.Capabilities.VolumeCreatedAt, "sbx_volume.v", "created_at"),
				resource.TestCheckResourceAttr("sbx_sandbox.s", "state", "running"),
				resource.TestCheckResourceAttr("sbx_sandbox.s", "status", "running"),
				resource.TestCheckResourceAttrSet("sbx_sandbox.s", "started_at"),
				resource.TestCheckResourceAttrPair("sbx_sandbox.s", "template_id", "sbx_template.t", "id"),
				resource.TestCheckResourceAttrPair("sbx_sandbox.s", "volume_mount.0.volume_id", "sbx_volume.v", "id"),
				resource.TestCheckResourceAttr("sbx_sandbox.s", "labels.suite", r.name),
				existsOnPlatform(t, h, KindTemplate, &tplID),
				existsOnPlatform(t, h, KindVolume, &volID),
				existsOnPlatform(t, h, KindSandbox, &boxID),
				fileEventually("the volume, written by the sandbox", token, func() (string, bool) {
					return h.OutOfBand.ReadVolumeFile(t, volID, "/hello.txt")
				}),
			),
		}},
	})
}

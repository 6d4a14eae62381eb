package e2bfake

import (
	"fmt"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
)

// kitFaultPlan is E2B under faults: its REST routes as the spec writes
// them, through the provider's REST client.
func kitFaultPlan() *platformtest.FaultPlan {
	const template = `
resource "sbx_template" "t" {
  name       = "fm-tpl"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}
`
	const sandbox = `
resource "sbx_sandbox" "b" {
  name        = "fm-box"
  template_id = sbx_template.t.id
  timeout     = "10m"
}
`
	return &platformtest.FaultPlan{
		Client: platformtest.ClientREST,
		Kinds: []platformtest.FaultTarget{
			{
				Kind: platformtest.KindVolume,
				HCL: func(_ bool, timeouts string) string {
					return "resource \"sbx_volume\" \"v\" {\n  name = \"fm-vol\"\n" + timeouts + "}\n"
				},
				Routes: map[platformtest.Op]string{platformtest.OpCreate: "POST /volumes", platformtest.OpRead: "GET /volumes/{volumeID}",
					platformtest.OpDelete: "DELETE /volumes/{volumeID}"},
				Why: map[platformtest.Op]string{platformtest.OpUpdate: "an E2B volume has nothing to change in place " +
					"(its name replaces it; labels, size_gb and region are refused at plan time)"},
			},
			{
				Kind: platformtest.KindTemplate,
				HCL: func(updated bool, timeouts string) string {
					step := "ok"
					if updated {
						step = "changed"
					}
					return fmt.Sprintf("resource \"sbx_template\" \"t\" {\n  name       = \"fm-tpl\"\n  dockerfile = \"FROM alpine:3.20\\nRUN echo %s\\n\"\n%s}\n", step, timeouts)
				},
				Routes: map[platformtest.Op]string{
					platformtest.OpCreate: "POST /v3/templates", platformtest.OpRead: "GET /templates/{templateID}",
					platformtest.OpUpdate: "POST /v2/templates/{templateID}/builds/{buildID}", platformtest.OpDelete: "DELETE /templates/{templateID}",
				},
			},
			{
				Kind: platformtest.KindSandbox, Deps: template,
				HCL: func(updated bool, timeouts string) string {
					timeout := "10m"
					if updated {
						timeout = "20m"
					}
					return fmt.Sprintf("resource \"sbx_sandbox\" \"b\" {\n  name        = \"fm-box\"\n  template_id = sbx_template.t.id\n  timeout     = %q\n%s}\n", timeout, timeouts)
				},
				Routes: map[platformtest.Op]string{
					platformtest.OpCreate: "POST /sandboxes", platformtest.OpRead: "GET /sandboxes/{sandboxID}",
					platformtest.OpUpdate: "POST /sandboxes/{sandboxID}/timeout", platformtest.OpDelete: "DELETE /sandboxes/{sandboxID}",
				},
			},
			{
				Kind: platformtest.KindSnapshot, Deps: template + sandbox,
				HCL: func(_ bool, timeouts string) string {
					return "resource \"sbx_snapshot\" \"s\" {\n  sandbox_id = sbx_sandbox.b.id\n  name       = \"fm-snap\"\n" + timeouts + "}\n"
				},
				Routes: map[platformtest.Op]string{platformtest.OpCreate: "POST /sandboxes/{sandboxID}/snapshots",
					platformtest.OpRead: "GET /snapshots", platformtest.OpDelete: "DELETE /templates/{templateID}"},
				Why: map[platformtest.Op]string{platformtest.OpUpdate: "snapshots are immutable: every change replaces them"},
			},
		},
		Makes: []string{"POST /v3/templates", "POST /v2/templates/{templateID}/builds/{buildID}",
			"POST /sandboxes", "POST /volumes", "POST /sandboxes/{sandboxID}/snapshots"},
		Random: &platformtest.RandomRun{
			Kind:   platformtest.KindVolume,
			HCL:    platformtest.CountedVolumes("fm-vol", ""),
			Routes: []string{"POST /volumes", "GET /volumes", "GET /volumes/{volumeID}", "DELETE /volumes/{volumeID}", "GET /v2/sandboxes"},
		},
	}
}

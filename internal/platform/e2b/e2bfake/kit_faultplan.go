package e2bfake

import "github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"

// kitFaultPlan is E2B under faults: its REST routes as the spec writes
// them, through the provider's REST client.
func kitFaultPlan() *platformtest.FaultPlan {
	// The kinds' resources; a kind's Deps are the others' as they are before an update.
	volumeHCL := platformtest.ResourceHCL("sbx_volume", "v", `  name = "fm-vol"`, "", "")
	templateHCL := platformtest.ResourceHCL("sbx_template", "t", "  name       = \"fm-tpl\"\n  dockerfile = \"FROM alpine:3.20\\nRUN echo %s\\n\"", "ok", "changed")
	sandboxHCL := platformtest.ResourceHCL("sbx_sandbox", "b", "  name        = \"fm-box\"\n  template_id = sbx_template.t.id\n  timeout     = %s", `"10m"`, `"20m"`)
	return &platformtest.FaultPlan{
		Client: platformtest.ClientREST,
		Kinds: []platformtest.FaultTarget{
			{
				Kind: platformtest.KindVolume,
				HCL:  volumeHCL,
				Routes: map[platformtest.Op]string{platformtest.OpCreate: "POST /volumes", platformtest.OpRead: "GET /volumes/{volumeID}",
					platformtest.OpDelete: "DELETE /volumes/{volumeID}"},
				Why: map[platformtest.Op]string{platformtest.OpUpdate: "an E2B volume has nothing to change in place " +
					"(its name replaces it; labels, size_gb and region are refused at plan time)"},
			},
			{
				Kind: platformtest.KindTemplate,
				HCL:  templateHCL,
				Routes: map[platformtest.Op]string{
					platformtest.OpCreate: "POST /v3/templates", platformtest.OpRead: "GET /templates/{templateID}",
					platformtest.OpUpdate: "POST /v2/templates/{templateID}/builds/{buildID}", platformtest.OpDelete: "DELETE /templates/{templateID}",
				},
			},
			{
				Kind: platformtest.KindSandbox, Deps: templateHCL(false, ""),
				HCL: sandboxHCL,
				Routes: map[platformtest.Op]string{
					platformtest.OpCreate: "POST /sandboxes", platformtest.OpRead: "GET /sandboxes/{sandboxID}",
					platformtest.OpUpdate: "POST /sandboxes/{sandboxID}/timeout", platformtest.OpDelete: "DELETE /sandboxes/{sandboxID}",
				},
			},
			{
				Kind: platformtest.KindSnapshot, Deps: templateHCL(false, "") + sandboxHCL(false, ""),
				HCL: platformtest.ResourceHCL("sbx_snapshot", "s", "  sandbox_id = sbx_sandbox.b.id\n  name       = \"fm-snap\"", "", ""),
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

package flyfake

import "github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"

// kitFaultPlan is Fly's Machines API under faults: its REST routes as the
// spec writes them, through the provider's REST client. A machine update
// is a POST of the whole config: sent twice it sets the same config, so
// the client repeats it like a PUT (Repeatable).
func kitFaultPlan() *platformtest.FaultPlan {
	const noRequest = "a Fly template is a record in state of an image reference: Fly has no template API, so no request is sent"
	// The kinds' resources; a kind's Deps are the others' as they are before an update.
	volumeHCL := platformtest.ResourceHCL("sbx_volume", "v", "  name    = \"fm_vol\"\n  size_gb = %s", "1", "2")
	templateHCL := platformtest.ResourceHCL("sbx_template", "t", "  name  = \"fm-tpl\"\n  image = \""+kitImage+"\"", "", "")
	sandboxHCL := platformtest.ResourceHCL("sbx_sandbox", "b", "  name        = \"fm-box\"\n  template_id = sbx_template.t.id\n  memory_mb   = %s", "256", "512")
	return &platformtest.FaultPlan{
		Client:     platformtest.ClientREST,
		Repeatable: []string{"POST /apps/{app_name}/machines/{machine_id}"},
		Kinds: []platformtest.FaultTarget{
			{
				Kind: platformtest.KindVolume,
				HCL:  volumeHCL,
				Routes: map[platformtest.Op]string{
					platformtest.OpCreate: "POST /apps/{app_name}/volumes", platformtest.OpRead: "GET /apps/{app_name}/volumes/{volume_id}",
					platformtest.OpUpdate: "PUT /apps/{app_name}/volumes/{volume_id}/extend", platformtest.OpDelete: "DELETE /apps/{app_name}/volumes/{volume_id}",
				},
			},
			{
				Kind:   platformtest.KindTemplate,
				HCL:    templateHCL,
				Routes: map[platformtest.Op]string{},
				Why: map[platformtest.Op]string{platformtest.OpCreate: noRequest, platformtest.OpRead: noRequest,
					platformtest.OpUpdate: noRequest, platformtest.OpDelete: noRequest},
			},
			{
				Kind: platformtest.KindSandbox, Deps: templateHCL(false, ""),
				HCL: sandboxHCL,
				Routes: map[platformtest.Op]string{
					platformtest.OpCreate: "POST /apps/{app_name}/machines", platformtest.OpRead: "GET /apps/{app_name}/machines/{machine_id}",
					platformtest.OpUpdate: "POST /apps/{app_name}/machines/{machine_id}", platformtest.OpDelete: "DELETE /apps/{app_name}/machines/{machine_id}",
				},
			},
			{
				Kind: platformtest.KindSnapshot, Deps: volumeHCL(false, ""), Kept: true,
				HCL: platformtest.ResourceHCL("sbx_snapshot", "s", "  volume_id = sbx_volume.v.id", "", ""),
				Routes: map[platformtest.Op]string{platformtest.OpCreate: "POST /apps/{app_name}/volumes/{volume_id}/snapshots",
					platformtest.OpRead: "GET /apps/{app_name}/volumes/{volume_id}/snapshots"},
				Why: map[platformtest.Op]string{
					platformtest.OpUpdate: "snapshots are immutable: every change replaces them",
					platformtest.OpDelete: "Fly cannot delete snapshots: destroy forgets one with a warning and sends no request",
				},
			},
		},
		Makes: []string{"POST /apps", "POST /apps/{app_name}/machines", "POST /apps/{app_name}/volumes",
			"POST /apps/{app_name}/volumes/{volume_id}/snapshots"},
		Random: &platformtest.RandomRun{
			Kind: platformtest.KindVolume,
			HCL:  platformtest.CountedVolumes("fm_vol", "  size_gb = 1\n"),
			Routes: []string{"POST /apps/{app_name}/volumes", "GET /apps/{app_name}/volumes", "GET /apps/{app_name}/volumes/{volume_id}",
				"DELETE /apps/{app_name}/volumes/{volume_id}", "GET /apps/{app_name}"},
		},
	}
}

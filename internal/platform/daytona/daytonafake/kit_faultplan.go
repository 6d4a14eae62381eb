package daytonafake

import "github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"

// kitFaultPlan is Daytona under faults: its REST routes as the spec
// writes them, through the provider's REST client. Daytona refuses a
// second sandbox, volume or snapshot of a name, so a create whose answer
// was lost and whose object is not found is sent once more (a first create
// that did land is refused as taken, then found): CreatesResent.
func kitFaultPlan() *platformtest.FaultPlan {
	// image is the templates' image: a pinned tag, since Daytona refuses
	// moving ones.
	const image = "python:3.12-slim"
	// The kinds' resources; a kind's Deps are the others' as they are before an update.
	volumeHCL := platformtest.ResourceHCL("sbx_volume", "v", `  name = "fm-vol"`, "", "")
	templateHCL := platformtest.ResourceHCL("sbx_template", "t", "  name  = \"fm-tpl\"\n  image = \""+image+"\"", "", "")
	sandboxHCL := platformtest.ResourceHCL("sbx_sandbox", "b", "  name        = \"fm-box\"\n  template_id = sbx_template.t.id\n  labels      = { team = %s }", `"a"`, `"b"`)
	return &platformtest.FaultPlan{
		Client:        platformtest.ClientREST,
		CreatesResent: true,
		Kinds: []platformtest.FaultTarget{
			{
				Kind: platformtest.KindVolume,
				HCL:  volumeHCL,
				Routes: map[platformtest.Op]string{platformtest.OpCreate: "POST /volumes", platformtest.OpRead: "GET /volumes/{volumeId}",
					platformtest.OpDelete: "DELETE /volumes/{volumeId}"},
				Why: map[platformtest.Op]string{platformtest.OpUpdate: "a Daytona volume has nothing to change in place " +
					"(its name replaces it; labels, size_gb and region are refused at plan time)"},
			},
			{
				Kind: platformtest.KindTemplate,
				HCL:  templateHCL,
				Routes: map[platformtest.Op]string{platformtest.OpCreate: "POST /snapshots", platformtest.OpRead: "GET /snapshots/{id}",
					platformtest.OpDelete: "DELETE /snapshots/{id}"},
				Why: map[platformtest.Op]string{platformtest.OpUpdate: "Daytona snapshots cannot be rebuilt: every change of a template replaces it"},
			},
			{
				Kind: platformtest.KindSandbox, Deps: templateHCL(false, ""),
				HCL: sandboxHCL,
				Routes: map[platformtest.Op]string{
					platformtest.OpCreate: "POST /sandbox", platformtest.OpRead: "GET /sandbox/{sandboxIdOrName}",
					platformtest.OpUpdate: "PUT /sandbox/{sandboxIdOrName}/labels", platformtest.OpDelete: "DELETE /sandbox/{sandboxIdOrName}",
				},
			},
			{
				Kind: platformtest.KindSnapshot, Deps: templateHCL(false, "") + sandboxHCL(false, ""),
				HCL: platformtest.ResourceHCL("sbx_snapshot", "s", "  sandbox_id = sbx_sandbox.b.id\n  name       = \"fm-snap\"", "", ""),
				Routes: map[platformtest.Op]string{platformtest.OpCreate: "POST /sandbox/{sandboxIdOrName}/snapshot",
					platformtest.OpRead: "GET /snapshots/{id}", platformtest.OpDelete: "DELETE /snapshots/{id}"},
				Why: map[platformtest.Op]string{platformtest.OpUpdate: "snapshots are immutable: every change replaces them"},
			},
		},
		Makes: []string{"POST /snapshots", "POST /sandbox", "POST /volumes", "POST /sandbox/{sandboxIdOrName}/snapshot"},
		Random: &platformtest.RandomRun{
			Kind: platformtest.KindVolume,
			HCL:  platformtest.CountedVolumes("fm-vol", ""),
			Routes: []string{"POST /volumes", "GET /volumes", "GET /volumes/{volumeId}", "GET /volumes/by-name/{name}",
				"DELETE /volumes/{volumeId}", "GET /sandbox"},
		},
	}
}

package modalacc_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// What Modal cannot do is refused at plan time, before any call to Modal,
// with an error naming the attribute (or Dockerfile line) and its value:
//   - state: Modal has no pause or stop (snapshots keep a sandbox instead);
//   - timeout: at most 24 hours;
//   - on_timeout: Modal kills a sandbox at its timeout, nothing else;
//   - a Dockerfile COPY of local files: the SDK uploads no build context;
//   - a volume_mount on a sandbox restored from a memory snapshot: the
//     SDK's restore cannot mount volumes;
//   - max_retries: the SDK retries by itself, the provider's retries
//     cannot reach it.
//
// Each plan must fail and the fake must see no sandbox create.
func TestAccModalPlanRefusals(t *testing.T) {
	acctest.RequireTerraform(t)
	t.Parallel()
	sandbox := func(extra string) string {
		return modalTemplateHCL("refused-tpl") + `
resource "sbx_sandbox" "s" {
  name        = "refused-box"
  template_id = sbx_template.t.id
  ` + extra + `
}
`
	}
	for _, tc := range []struct {
		name     string
		provider []string // extra provider block lines
		body     string
		want     *regexp.Regexp
	}{
		{
			name: "state_paused",
			body: sandbox(`state = "paused"`),
			want: acctest.ErrorPattern(`state = "paused" is not supported on modal`),
		},
		{
			name: "state_stopped",
			body: sandbox(`state = "stopped"`),
			want: acctest.ErrorPattern(`state = "stopped" is not supported on modal`),
		},
		{
			name: "timeout_over_24h",
			body: sandbox(`timeout = "25h"`),
			want: regexp.MustCompile(`(?s)timeout.*?above\s+the\s+maximum\s+of\s+.*?on\s+modal`),
		},
		{
			name: "on_timeout_pause",
			body: sandbox("timeout    = \"1h\"\n  on_timeout = \"pause\""),
			want: acctest.ErrorPattern(`on_timeout = "pause" is not supported on modal`),
		},
		{
			name: "dockerfile_local_copy",
			body: `
resource "sbx_template" "t" {
  name       = "copy-tpl"
  dockerfile = <<-EOT
    FROM python:3.12-slim
    RUN pip install requests
    COPY agent.py /app/agent.py
  EOT
}
`,
			want: acctest.ErrorPattern(`dockerfile line 3: COPY of local files`),
		},
		{
			// A memory snapshot's id (Modal's sn-…, not an Image's im-…)
			// is known at plan time, and the SDK's restore mounts nothing.
			name: "volume_mount_on_memory_restore",
			body: `
resource "sbx_sandbox" "s" {
  name             = "refused-restore"
  from_snapshot_id = "sn-0123456789abcdefghijkl"

  volume_mount {
    volume_id = "acc-vol"
    path      = "/data"
  }
}
`,
			want: acctest.ErrorPattern(`Volume mount on a sandbox restored from a memory snapshot`),
		},
		{
			name:     "max_retries",
			provider: []string{"  max_retries = 3"},
			body:     sandbox(""),
			want:     acctest.ErrorPattern(`max_retries is not supported on modal`),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ws, _ := modalAccWorkspace(t)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: modalFactories(ws),
				Steps: []resource.TestStep{{
					Config:      modalProviderBlock(ws, tc.provider...) + tc.body,
					PlanOnly:    true,
					ExpectError: tc.want,
				}},
			})
			for _, rpc := range []string{"SandboxCreateV2", "SandboxCreate", "ImageGetOrCreate"} {
				if n := ws.Calls(rpc); n != 0 {
					t.Errorf("the refused plan reached Modal: %d %s calls", n, rpc)
				}
			}
		})
	}
}

package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// TestExecCheckSupport: a platform that runs no command refuses the action
// on sandbox_id with its reason; one that runs commands refuses env and
// working_dir where it does not take them, each with its reason, and never
// shows env's values.
func TestExecCheckSupport(t *testing.T) {
	all := platform.ExecSupport{Runs: true, Env: true, WorkingDir: true}
	bare := platform.ExecSupport{Runs: true, NoEnvWhy: "only the command is sent", NoWorkingDirWhy: "no directory either"}
	none := platform.ExecSupport{Why: "commands run through another API"}
	env := types.MapValueMust(types.StringType, map[string]attr.Value{"TOKEN": types.StringValue("s3cret")})
	for _, tc := range []struct {
		name    string
		support platform.ExecSupport
		config  sandboxExecModel
		want    map[string]string // path → text the error on it says
	}{
		{name: "everything taken", support: all,
			config: sandboxExecModel{Env: env, WorkingDir: types.StringValue("/work")}},
		{name: "no commands at all", support: none, config: sandboxExecModel{Env: types.MapNull(types.StringType)},
			want: map[string]string{"sandbox_id": "alpha runs no command in a sandbox through the provider: commands run through another API."}},
		{name: "env and working_dir refused", support: bare,
			config: sandboxExecModel{Env: env, WorkingDir: types.StringValue("/work")},
			want: map[string]string{
				"env":         "env (values not shown) is not supported on alpha: only the command is sent.",
				"working_dir": `working_dir = "/work" is not supported on alpha: no directory either.`,
			}},
		{name: "left out: nothing to refuse", support: bare,
			config: sandboxExecModel{Env: types.MapNull(types.StringType), WorkingDir: types.StringNull()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var diags diag.Diagnostics
			execCheckSupport("alpha", tc.support, tc.config, &diags)
			if len(diags.Errors()) != len(tc.want) {
				t.Fatalf("errors %v, want %d", diags, len(tc.want))
			}
			for _, d := range diags.Errors() {
				wp, ok := d.(diag.DiagnosticWithPath)
				if !ok {
					t.Fatalf("error %v has no attribute path", d)
				}
				var want string
				for p, w := range tc.want {
					if wp.Path().Equal(path.Root(p)) {
						want = w
					}
				}
				if want == "" || !strings.Contains(d.Detail(), want) {
					t.Errorf("error on %s: %q, want it to say %q", wp.Path(), d.Detail(), want)
				}
				if strings.Contains(d.Detail(), "s3cret") {
					t.Errorf("error shows env's value: %q", d.Detail())
				}
			}
		})
	}
}

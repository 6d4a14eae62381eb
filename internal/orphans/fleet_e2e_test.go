package orphans

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// TestFleetE2E is a team's fleet through the terraform CLI and the built
// provider binary: three workspaces (default, staging, prod), each applied
// by terraform with a template and a sandbox on the E2B fake, their states
// in Terraform's own pg backend on a real PostgreSQL, and the same through
// its s3 backend on an S3 server on this machine and through local
// workspaces of a working directory. staging's box runs for 3h, the
// others' for 1h. Judged two hours on, `drift --backend` flags exactly the
// default and prod boxes, each with its workspace; with a box of the
// same owner that no workspace holds, `orphans --backend --delete` removes
// that box alone and leaves every workspace's.
func TestFleetE2E(t *testing.T) {
	t.Parallel() // its objects carry owners of its own: the engine and other runs may hold others
	tf := acctest.RequireTerraform(t)
	pg := acctest.RequirePostgres(t)
	bin, baseEnv := acctest.ProviderBinary(t)
	// The S3 server on this machine; terraform's s3 backend finds it
	// through AWS_ENDPOINT_URL_S3, as this command does.
	store := acctest.StartS3(t)
	store.CreateBucket(t, "tfstate")
	baseEnv = append(baseEnv, "AWS_ACCESS_KEY_ID=AKIDFLEET", "AWS_SECRET_ACCESS_KEY=fleet-secret", "AWS_ENDPOINT_URL_S3="+store.URL)

	for _, backend := range []struct {
		name  string
		block string
		args  []string // the --backend flags selecting it
	}{
		{"pg", `  backend "pg" {}` + "\n", []string{"--backend", "pg"}},
		{"s3", `  backend "s3" {
    bucket                      = "tfstate"
    key                         = "sbx/terraform.tfstate"
    region                      = "us-east-1"
    use_path_style              = true
    skip_credentials_validation = true
    skip_requesting_account_id  = true
    skip_metadata_api_check     = true
    skip_region_validation      = true
    skip_s3_checksum            = true
  }
`, []string{"--backend", "s3", "--backend-config", "bucket=tfstate", "--backend-config", "key=sbx/terraform.tfstate", "--backend-config", "use_path_style=true"}},
		{"local", "", []string{"--backend", "local", "--backend-config", "dir=."}},
	} {
		t.Run(backend.name, func(t *testing.T) {
			// The fake's clock stands still at start, so every box starts
			// then and ends its timeout after it: two hours on is past the
			// 1h boxes and short of the 3h one, however long the applies take.
			start := time.Now().UTC().Truncate(time.Second)
			fake := e2bfake.New(t, e2bfake.Options{APIKey: e2bKey, Clock: clock.NewFake(start)})
			t.Cleanup(func() {
				if v := fake.SpecViolations(); len(v) > 0 {
					t.Errorf("requests or responses broke the E2B spec:\n%v", v)
				}
			})
			schema := "fleet_" + backend.name
			env := append(slices.Clone(baseEnv), "E2B_API_KEY="+e2bKey, "E2B_API_URL="+fake.URL(),
				"PG_CONN_STR="+pg.ConnStr, "PG_SCHEMA_NAME="+schema)
			e := &e2e{t: t, tf: tf, bin: bin, dir: t.TempDir(), env: env}
			if backend.block != "" {
				// init configures the backend; run before the configuration
				// names the provider, since under dev_overrides init would
				// look the provider up in the registry.
				e.write("main.tf", "terraform {\n"+backend.block+"}\n")
				if out, code := e.terraform("init", "-input=false", "-no-color"); code != 0 {
					t.Fatalf("terraform init: exit %d:\n%s", code, out)
				}
			}
			e.write("main.tf", fmt.Sprintf(`terraform {
%s  required_providers {
    sbx = { source = "sbxhq/sbx" }
  }
}

variable "timeout" {
  type = string
}

provider "sbx" {
  owner = "fleet"
  e2b {
    tier = "pro"
  }
}

resource "sbx_template" "t" {
  name       = "fleet-${terraform.workspace}"
  dockerfile = "FROM alpine:3.20\nRUN echo ok\n"
}

resource "sbx_sandbox" "box" {
  template_id = sbx_template.t.id
  timeout     = var.timeout
}

output "box" {
  value = sbx_sandbox.box.id
}
`, backend.block))
			boxes := map[string]string{}
			for _, ws := range []struct{ name, timeout string }{{"default", "1h"}, {"staging", "3h"}, {"prod", "1h"}} {
				if ws.name != "default" {
					if out, code := e.terraform("workspace", "new", "-no-color", ws.name); code != 0 {
						t.Fatalf("terraform workspace new %s: exit %d:\n%s", ws.name, code, out)
					}
				}
				if out, code := e.terraform("apply", "-auto-approve", "-input=false", "-no-color", "-var", "timeout="+ws.timeout); code != 0 {
					t.Fatalf("terraform apply in %s: exit %d:\n%s", ws.name, code, out)
				}
				out, code := e.terraform("output", "-raw", "box")
				if code != 0 {
					t.Fatalf("terraform output in %s: exit %d:\n%s", ws.name, code, out)
				}
				boxes[ws.name] = string(out)
			}
			if backend.name == "pg" {
				// The states are where the team keeps them: rows of the pg backend's table.
				if got := pg.Psql(t, "SELECT string_agg(name, ',' ORDER BY name) FROM "+schema+".states"); strings.TrimSpace(got) != "default,prod,staging" {
					t.Fatalf("the pg backend holds workspaces %q, want default,prod,staging", got)
				}
			}

			// drift: two hours on, the 1h boxes are past their deadline.
			now := start.Add(2 * time.Hour).Format(time.RFC3339)
			out, errOut, code := e.cli("drift", append([]string{"--now", now, "--warn-before", "30m", "--format", "json"}, backend.args...)...)
			if code != 2 {
				t.Fatalf("drift: exit %d, want 2\n%s\n%s", code, out, errOut)
			}
			var rep struct {
				Workspaces []struct {
					Name string `json:"name"`
				} `json:"workspaces"`
				Findings []struct {
					Workspace, Address, ID string
					Status                 string `json:"retention_status"`
				} `json:"findings"`
			}
			if err := json.Unmarshal(out, &rep); err != nil {
				t.Fatalf("drift report: %v\n%s", err, out)
			}
			var got []string
			for _, f := range rep.Findings {
				got = append(got, f.Workspace+" "+f.Address+" "+f.ID+" "+f.Status)
			}
			slices.Sort(got)
			want := []string{"default sbx_sandbox.box " + boxes["default"] + " expired", "prod sbx_sandbox.box " + boxes["prod"] + " expired"}
			if !slices.Equal(got, want) || len(rep.Workspaces) != 3 {
				t.Errorf("drift findings %q over %d workspaces, want %q over 3", got, len(rep.Workspaces), want)
			}

			// orphans: a box of the fleet's owner that no workspace holds,
			// as an apply killed mid-create leaves it.
			p, err := e2b.New(e2b.Config{APIKey: e2bKey, APIURL: fake.URL(), Tier: e2b.TierPro,
				Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }, PollInterval: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			left, err := p.Sandboxes().Create(context.Background(), platform.SandboxSpec{TemplateID: "fleet-prod", State: platform.StateRunning, Marks: platform.NewMarks("fleet")})
			if err != nil {
				t.Fatalf("the leftover box: %v", err)
			}
			out, errOut, code = e.cli("orphans", append([]string{"--platform", "e2b", "--owner", "fleet", "--delete", "--format", "json"}, backend.args...)...)
			var orep jsonReport
			if err := json.Unmarshal(out, &orep); err != nil {
				t.Fatalf("orphans report (exit %d): %v\n%s\n%s", code, err, out, errOut)
			}
			if code != ExitOrphans || len(orep.Orphans) != 1 || orep.Orphans[0].ID != left.ID || orep.Orphans[0].Result != "removed" ||
				orep.WorkspacesRead != 3 || orep.ResourcesRead != 6 {
				t.Fatalf("orphans --delete: exit %d, orphans %+v, read %d workspaces and %d resources; want %s removed, 3 and 6\n%s",
					code, orep.Orphans, orep.WorkspacesRead, orep.ResourcesRead, left.ID, errOut)
			}
			if _, ok := fake.Sandbox(left.ID); ok {
				t.Errorf("the leftover box %s is still there", left.ID)
			}
			for ws, id := range boxes {
				if _, ok := fake.Sandbox(id); !ok {
					t.Errorf("workspace %s's box %s was removed", ws, id)
				}
			}
		})
	}
}

// cli runs a subcommand of the built binary in the working directory.
func (e *e2e) cli(sub string, args ...string) (stdout, stderr []byte, code int) {
	e.t.Helper()
	cmd := exec.Command(e.bin, append([]string{sub}, args...)...)
	cmd.Dir, cmd.Env = e.dir, e.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code = e.exitCode(cmd.Run())
	return out.Bytes(), errb.Bytes(), code
}

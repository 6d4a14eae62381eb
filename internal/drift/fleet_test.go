package drift

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
)

// fleetState is a state holding one sandbox per deadline given, named
// box_<i>, with id <prefix>-<i>. These states are hand-written: the tests
// here are about reading a backend (e2e_fleet_test.go writes its states
// with real applies).
func fleetState(prefix string, deadlines ...string) string {
	var res []string
	for i, d := range deadlines {
		res = append(res, fmt.Sprintf(`{"mode":"managed","type":"sbx_sandbox","name":"box_%d","instances":[{"attributes":{"id":"%s-%d","platform":"e2b","status":"running","expires_at":%q,"retention_rule":"running_sandbox","retention_action":"kill"}}]}`, i, prefix, i, d))
	}
	return `{"version":4,"serial":1,"lineage":"l","resources":[` + strings.Join(res, ",") + `]}`
}

// The fleet of these tests, judged at driftTestNow (2026-05-01T12:00Z)
// with the default 72h warning: default has one box expired, staging one
// expiring and one fine, prod one expired.
var fleetWorkspaces = map[string]string{
	"default": fleetState("d", "2026-05-01T11:00:00Z"),
	"staging": fleetState("s", "2026-05-02T12:00:00Z", "2026-06-01T00:00:00Z"),
	"prod":    fleetState("p", "2026-04-30T00:00:00Z"),
}

type fleetJSON struct {
	Source     string `json:"source"`
	Workspaces []struct {
		Name    string `json:"name"`
		Checked int    `json:"checked"`
		Expired int    `json:"expired"`
		NoState bool   `json:"no_state"`
	} `json:"workspaces"`
	Findings []struct {
		Workspace       string `json:"workspace"`
		Address         string `json:"address"`
		ID              string `json:"id"`
		RetentionStatus string `json:"retention_status"`
	} `json:"findings"`
}

func decodeFleet(t *testing.T, out string) fleetJSON {
	t.Helper()
	var doc fleetJSON
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	return doc
}

// checkFleet runs drift over a backend holding fleetWorkspaces (args
// select it) and checks what every report form says of it.
func checkFleet(t *testing.T, source string, args ...string) {
	t.Helper()
	code, out, errOut := driftTestRun("", append([]string{"--format", "json"}, args...)...)
	if code != ExitExpired {
		t.Fatalf("exit %d, want 2\n%s%s", code, out, errOut)
	}
	rep := decodeFleet(t, out)
	if !strings.Contains(rep.Source, source) {
		t.Errorf("source %q, want it to name %q", rep.Source, source)
	}
	var got []string
	for _, f := range rep.Findings {
		got = append(got, f.Workspace+"/"+f.ID+"="+f.RetentionStatus)
	}
	want := "prod/p-0=expired default/d-0=expired staging/s-0=expiring"
	if strings.Join(got, " ") != want {
		t.Errorf("findings %v, want %s", got, want)
	}
	var names []string
	for _, w := range rep.Workspaces {
		names = append(names, fmt.Sprintf("%s:%d/%d", w.Name, w.Expired, w.Checked))
	}
	if strings.Join(names, " ") != "default:1/1 prod:1/1 staging:0/2" {
		t.Errorf("workspaces %v, want default first, then by name, with their counts", names)
	}

	// The table names each finding's workspace; --group-by workspace
	// orders by workspace and adds each one's counts.
	_, out, _ = driftTestRun("", append([]string{"--group-by", "workspace"}, args...)...)
	for _, want := range []string{"WORKSPACE  RETENTION", "default    expired", "prod       expired", "staging    expiring",
		"WORKSPACE  EXPIRED  EXPIRING  CHECKED", "of 4 sandboxes, snapshots and templates checked in 3 workspaces of ", source} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if i, j := strings.Index(out, "default    expired"), strings.Index(out, "prod       expired"); i > j {
		t.Errorf("--group-by workspace: default's findings come after prod's:\n%s", out)
	}

	// --workspace checks only the workspaces named.
	code, out, _ = driftTestRun("", append([]string{"--format", "json", "--workspace", "staging"}, args...)...)
	rep = decodeFleet(t, out)
	if code != ExitClean || len(rep.Findings) != 1 || rep.Findings[0].Workspace != "staging" || len(rep.Workspaces) != 1 {
		t.Errorf("--workspace staging: exit %d, %+v", code, rep)
	}
	code, _, errOut = driftTestRun("", append([]string{"--workspace", "stagign"}, args...)...)
	if code != ExitError || !strings.Contains(errOut, `no workspace "stagign" (--workspace); it has default, prod, staging`) {
		t.Errorf("unknown --workspace: exit %d, %s", code, errOut)
	}
}

func TestFleetLocal(t *testing.T) {
	dir := t.TempDir()
	for ws, state := range fleetWorkspaces {
		p := filepath.Join(dir, "terraform.tfstate.d", ws, "terraform.tfstate")
		if ws == "default" {
			p = filepath.Join(dir, "terraform.tfstate")
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(state), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	checkFleet(t, "local backend in "+dir, "--backend", "local", "--backend-config", "dir="+dir)

	// A workspace whose state is not one fails the run, naming it.
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate.d", "prod", "terraform.tfstate"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := driftTestRun("", "--backend", "local", "--backend-config", "dir="+dir)
	if code != ExitError || !strings.Contains(errOut, `drift: local backend in `+dir+`: workspace "prod": `) {
		t.Errorf("corrupt workspace: exit %d, %s", code, errOut)
	}
}

func TestFleetPG(t *testing.T) {
	pg := acctest.RequirePostgres(t)
	pg.WriteStates(t, "terraform_remote_state", fleetWorkspaces)
	t.Setenv("PG_CONN_STR", pg.ConnStr)
	checkFleet(t, "schema terraform_remote_state", "--backend", "pg")

	for _, tc := range []struct {
		name, setup string
		args        []string
		want        string
	}{
		{"wrong schema", "", []string{"--backend-config", "schema_name=terraform_state"}, "schema terraform_state: no table terraform_state.states"},
		{"unreachable database", "", []string{"--backend-config", "conn_str=host=127.0.0.1 port=1 user=x dbname=y sslmode=disable"}, "drift: pg backend 127.0.0.1:1/y schema terraform_remote_state: cannot connect"},
		{"corrupt state row", `INSERT INTO terraform_remote_state.states (name, data) VALUES ('broken', '{"version":4,"resources":[')`, nil,
			`/postgres schema terraform_remote_state: workspace "broken": `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != "" {
				pg.Psql(t, tc.setup)
			}
			code, out, errOut := driftTestRun("", append([]string{"--backend", "pg"}, tc.args...)...)
			if code != ExitError || !strings.HasPrefix(errOut, "drift: pg backend ") || !strings.Contains(errOut, tc.want) || out != "" {
				t.Errorf("exit %d, stderr %q, want exit 1 and %q, no report (stdout %q)", code, errOut, tc.want, out)
			}
		})
	}
}

func TestFleetFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--backend", "local", "x.tfstate"}, "--backend and a STATE argument are given together"},
		{[]string{"--workspace", "prod", "x.tfstate"}, "--workspace needs --backend"},
		{[]string{"--group-by", "workspace", "x.tfstate"}, "--group-by workspace needs --backend"},
		{[]string{"--backend", "local", "--group-by", "team"}, `invalid --group-by "team": use workspace`},
		{[]string{"--backend", "s4"}, `invalid --backend "s4": use pg, s3, local`},
		{[]string{"--backend", "pg", "--backend-config", "conn_str="}, "the pg backend needs a connection string"},
	} {
		code, out, errOut := driftTestRun("", tc.args...)
		if code != ExitError || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("%v: exit %d, stderr %q, want exit 1 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestFleetS3(t *testing.T) {
	srv := acctest.StartS3(t)
	srv.CreateBucket(t, "tfstate")
	srv.CreateBucket(t, "empty")
	for ws, state := range fleetWorkspaces {
		key := "env:/" + ws + "/sbx/terraform.tfstate"
		if ws == "default" {
			key = "sbx/terraform.tfstate"
		}
		srv.Put(t, "tfstate", key, state)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	t.Setenv("AWS_ENDPOINT_URL_S3", srv.URL)
	s3 := func(bucket string) []string {
		return []string{"--backend", "s3", "--backend-config", "bucket=" + bucket, "--backend-config", "key=sbx/terraform.tfstate", "--backend-config", "use_path_style=true"}
	}
	checkFleet(t, "s3 backend s3://tfstate/sbx/terraform.tfstate", s3("tfstate")...)

	srv.Put(t, "tfstate", "env:/broken/sbx/terraform.tfstate", `{"version":4,"resources":[`)
	code, _, errOut := driftTestRun("", s3("tfstate")...)
	if code != ExitError || !strings.Contains(errOut, `drift: s3 backend s3://tfstate/sbx/terraform.tfstate at `+srv.URL+`: workspace "broken": `) {
		t.Errorf("corrupt state object: exit %d, %s", code, errOut)
	}
	code, _, errOut = driftTestRun("", s3("empty")...)
	if code != ExitError || !strings.Contains(errOut, `drift: s3 backend s3://empty/sbx/terraform.tfstate at `+srv.URL+`: no state`) {
		t.Errorf("bucket without states: exit %d, %s", code, errOut)
	}
}

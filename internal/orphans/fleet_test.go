package orphans

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// fleetFake is the E2B fake with one box of owner team per workspace
// named, one box of team that no workspace holds, and one of owner other.
type fleetFake struct {
	fake     *e2bfake.Server
	env      map[string]string
	held     map[string]string // workspace → its box
	orphan   string
	otherBox string
}

func newFleetFake(t *testing.T, workspaces ...string) *fleetFake {
	t.Helper()
	fake := e2bfake.New(t, e2bfake.Options{APIKey: e2bKey})
	ctx := context.Background()
	p, err := e2b.New(e2b.Config{APIKey: e2bKey, APIURL: fake.URL(), Tier: e2b.TierPro,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }, PollInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := p.Templates().Create(ctx, platform.TemplateSpec{Name: "base", Dockerfile: "FROM alpine\n", Marks: platform.NewMarks("team")})
	if err != nil {
		t.Fatal(err)
	}
	box := func(owner string) string {
		t.Helper()
		sb, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: tpl.ID, State: platform.StateRunning, Marks: platform.NewMarks(owner)})
		if err != nil {
			t.Fatal(err)
		}
		return sb.ID
	}
	f := &fleetFake{fake: fake, env: map[string]string{"E2B_API_KEY": e2bKey, "E2B_API_URL": fake.URL()}, held: map[string]string{}}
	for _, ws := range workspaces {
		f.held[ws] = box("team")
	}
	f.orphan, f.otherBox = box("team"), box("other")
	return f
}

// state is workspace ws's state: its box (hand-written; the terraform
// applies through a backend are in e2e_fleet_test.go).
func (f *fleetFake) state(ws string) string {
	return fmt.Sprintf(`{"version":4,"serial":1,"lineage":"l","resources":[{"mode":"managed","type":"sbx_sandbox","name":"box","instances":[{"attributes":{"id":%q,"platform":"e2b"}}]}]}`, f.held[ws])
}

// checkFleetDelete runs orphans over a backend holding every workspace of
// f (args select it): the dry run says what it read and finds the one
// orphan; --delete removes it and leaves every workspace's box and the
// other owner's.
func (f *fleetFake) checkFleetDelete(t *testing.T, source string, args ...string) {
	t.Helper()
	base := append([]string{"--platform", "e2b"}, args...)
	r := run(t, f.env, "", append(base, "--owner", "team", "--format", "json")...)
	rep := jsonReportOf(t, r)
	if r.code != ExitOrphans || len(rep.Orphans) != 1 || rep.Orphans[0].ID != f.orphan {
		t.Fatalf("dry run: exit %d, orphans %+v, want only %s\n%s", r.code, rep.Orphans, f.orphan, r.stderr)
	}
	if rep.WorkspacesRead != len(f.held) || rep.ResourcesRead != len(f.held) || !rep.AllStates || !strings.Contains(rep.Source, source) {
		t.Errorf("dry run read %d workspaces, %d resources, all_states %v, source %q; want %d, %d, true, %q",
			rep.WorkspacesRead, rep.ResourcesRead, rep.AllStates, rep.Source, len(f.held), len(f.held), source)
	}
	for _, s := range rep.States {
		if s.Workspace == "" || f.held[s.Workspace] == "" {
			t.Errorf("state %+v names no workspace of the backend", s)
		}
	}
	r = run(t, f.env, "", append(base, "--owner", "team")...)
	if want := fmt.Sprintf("read %d workspaces of ", len(f.held)); !strings.Contains(r.stdout, want) ||
		!strings.Contains(r.stdout, fmt.Sprintf("(%d sbx resources)", len(f.held))) {
		t.Errorf("the dry run's table does not say it read %d workspaces and resources:\n%s", len(f.held), r.stdout)
	}

	// Without an owner filter --delete refuses, and removes nothing.
	r = run(t, f.env, "", append(base, "--delete")...)
	if r.code != ExitError || !strings.Contains(r.stderr, "--delete needs --owner or --owner-prefix") {
		t.Errorf("--delete without --owner: exit %d, %s", r.code, r.stderr)
	}
	f.wantOnFake(t, true)

	r = run(t, f.env, "", append(base, "--owner", "team", "--delete", "--format", "json")...)
	rep = jsonReportOf(t, r)
	if r.code != ExitOrphans || rep.Summary.Removed != 1 {
		t.Fatalf("--delete: exit %d, %+v\n%s", r.code, rep.Summary, r.stderr)
	}
	f.wantOnFake(t, false)
}

// wantOnFake checks every workspace's box and the other owner's box are
// there, and the orphan is when orphanThere.
func (f *fleetFake) wantOnFake(t *testing.T, orphanThere bool) {
	t.Helper()
	for ws, id := range f.held {
		if _, ok := f.fake.Sandbox(id); !ok {
			t.Errorf("workspace %s's box %s was removed", ws, id)
		}
	}
	if _, ok := f.fake.Sandbox(f.otherBox); !ok {
		t.Errorf("the other owner's box %s was removed", f.otherBox)
	}
	if _, ok := f.fake.Sandbox(f.orphan); ok != orphanThere {
		t.Errorf("orphan %s on the fake: %v, want %v", f.orphan, ok, orphanThere)
	}
}

func TestFleetLocalDelete(t *testing.T) {
	f := newFleetFake(t, "default", "staging", "prod")
	dir := t.TempDir()
	var files []string
	for ws := range f.held {
		p := filepath.Join(dir, "terraform.tfstate.d", ws, "terraform.tfstate")
		if ws == "default" {
			p = filepath.Join(dir, "terraform.tfstate")
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Dir(p), "terraform.tfstate", f.state(ws))
		files = append(files, p)
	}
	slices.Sort(files)

	// States given as files delete nothing unless said to be all: one
	// left out would lose its boxes.
	r := run(t, f.env, "", "--platform", "e2b", "--owner", "team", "--delete", files[0])
	if r.code != ExitError || !strings.Contains(r.stderr, "--delete needs every state") {
		t.Errorf("--delete of one state file: exit %d, %s", r.code, r.stderr)
	}
	f.wantOnFake(t, true)

	f.checkFleetDelete(t, "local backend in "+dir, "--backend", "local", "--backend-config", "dir="+dir)
}

func TestFleetPGDelete(t *testing.T) {
	pg := acctest.RequirePostgres(t)
	f := newFleetFake(t, "default", "staging", "prod")
	states := map[string]string{}
	for ws := range f.held {
		states[ws] = f.state(ws)
	}
	pg.WriteStates(t, "terraform_remote_state", states)
	f.env["PG_CONN_STR"] = pg.ConnStr

	// A source that cannot be read stops the run before anything is
	// listed or removed, naming the source (and the workspace).
	for _, tc := range []struct {
		name, setup string
		args        []string
		want        string
	}{
		{"wrong schema", "", []string{"--backend-config", "schema_name=tfstate"}, "schema tfstate: no table tfstate.states"},
		{"unreachable database", "", []string{"--backend-config", "conn_str=host=127.0.0.1 port=1 user=x dbname=y sslmode=disable"}, "pg backend 127.0.0.1:1/y schema terraform_remote_state: cannot connect"},
		{"corrupt state row", `INSERT INTO terraform_remote_state.states (name, data) VALUES ('broken', 'not a state')`, nil, `schema terraform_remote_state: workspace "broken": `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != "" {
				pg.Psql(t, tc.setup)
				defer pg.Psql(t, `DELETE FROM terraform_remote_state.states WHERE name = 'broken'`)
			}
			r := run(t, f.env, "", append([]string{"--platform", "e2b", "--owner", "team", "--delete", "--backend", "pg"}, tc.args...)...)
			if r.code != ExitError || !strings.HasPrefix(r.stderr, "orphans: pg backend ") || !strings.Contains(r.stderr, tc.want) || r.stdout != "" {
				t.Errorf("exit %d, stderr %q, want exit 1 and %q", r.code, r.stderr, tc.want)
			}
			f.wantOnFake(t, true)
		})
	}

	f.checkFleetDelete(t, "schema terraform_remote_state", "--backend", "pg")
}

func TestFleetS3Delete(t *testing.T) {
	f := newFleetFake(t, "default", "staging", "prod")
	srv := acctest.StartS3(t)
	srv.CreateBucket(t, "tfstate")
	for ws := range f.held {
		key := "env:/" + ws + "/sbx/terraform.tfstate"
		if ws == "default" {
			key = "sbx/terraform.tfstate"
		}
		srv.Put(t, "tfstate", key, f.state(ws))
	}
	f.env["AWS_ACCESS_KEY_ID"], f.env["AWS_SECRET_ACCESS_KEY"], f.env["AWS_ENDPOINT_URL_S3"] = "AKIDTEST", "secret", srv.URL
	f.checkFleetDelete(t, "s3 backend s3://tfstate/sbx/terraform.tfstate",
		"--backend", "s3", "--backend-config", "bucket=tfstate", "--backend-config", "key=sbx/terraform.tfstate", "--backend-config", "use_path_style=true")
}

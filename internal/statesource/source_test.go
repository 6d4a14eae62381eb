package statesource_test

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/statesource"
)

func open(t *testing.T, env map[string]string, args ...string) (statesource.Source, error) {
	t.Helper()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	c := statesource.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return c.Open(func(k string) string { return env[k] })
}

// read walks a source and returns each workspace with its state ("<none>"
// for no state).
func read(t *testing.T, s statesource.Source) (map[string]string, []string, error) {
	t.Helper()
	got := map[string]string{}
	var order []string
	err := s.Each(context.Background(), func(ws string, r io.Reader) error {
		order = append(order, ws)
		if r == nil {
			got[ws] = "<none>"
			return nil
		}
		b, err := io.ReadAll(r)
		got[ws] = string(b)
		return err
	})
	return got, order, err
}

func TestOpenBadFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"unknown type", nil, []string{"--backend", "s4"}, `invalid --backend "s4": use pg, s3, local`},
		{"not key=value", nil, []string{"--backend", "pg", "--backend-config", "conn_str"}, `invalid --backend-config "conn_str": want KEY=VALUE`},
		{"key of another backend", nil, []string{"--backend", "local", "--backend-config", "conn_str=x"}, `invalid --backend-config key "conn_str" for the local backend: use dir`},
		{"pg without a connection string", nil, []string{"--backend", "pg"}, "needs a connection string"},
		{"secret not echoed", nil, []string{"--backend", "pg", "--backend-config", "conn_str=postgres://u:hunter2@[::1"}, "connection string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := open(t, tc.env, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to say %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("the error shows the password: %v", err)
			}
		})
	}
}

func TestLocal(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, s string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// An empty directory is no fleet: an error, never zero workspaces.
	s, err := open(t, nil, "--backend", "local", "--backend-config", "dir="+dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := read(t, s); err == nil || !strings.Contains(err.Error(), "local backend in "+dir+": no state") {
		t.Fatalf("empty directory: %v, want an error naming it", err)
	}
	write("terraform.tfstate", "D")
	write("terraform.tfstate.d/b/terraform.tfstate", "B")
	write("terraform.tfstate.d/a/terraform.tfstate", "A")
	write("terraform.tfstate.d/new/.keep", "")
	write("terraform.tfstate.d/emptied/terraform.tfstate", "")
	got, order, err := read(t, s)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"default", "a", "b", "emptied", "new"}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
	for ws, want := range map[string]string{"default": "D", "a": "A", "b": "B", "emptied": "<none>", "new": "<none>"} {
		if got[ws] != want {
			t.Errorf("workspace %s read %q, want %q", ws, got[ws], want)
		}
	}
	// A state that cannot be read is an error naming its workspace.
	if err := os.Chmod(filepath.Join(dir, "terraform.tfstate.d/b/terraform.tfstate"), 0); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 { // root reads it anyway
		var we *statesource.WorkspaceError
		if _, _, err := read(t, s); !errors.As(err, &we) || we.Workspace != "b" {
			t.Errorf("unreadable workspace b: %v", err)
		}
	}
}

// TestPG reads a states table laid out as Terraform's pg backend lays it
// out (schema, sequence, table, index as the backend creates them).
func TestPG(t *testing.T) {
	pg := acctest.RequirePostgres(t)
	pg.Psql(t, `CREATE SCHEMA team;
CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint;
CREATE TABLE team.states (id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY, name text UNIQUE, data text);
CREATE UNIQUE INDEX IF NOT EXISTS states_by_name ON team.states (name);
INSERT INTO team.states (name, data) VALUES ('zeta', 'Z'), ('default', 'D'), ('alpha', 'A');`)

	s, err := open(t, map[string]string{"PG_CONN_STR": pg.ConnStr, "PG_SCHEMA_NAME": "team"}, "--backend", "pg")
	if err != nil {
		t.Fatal(err)
	}
	got, order, err := read(t, s)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"default", "alpha", "zeta"}; !slices.Equal(order, want) || got["alpha"] != "A" || got["default"] != "D" {
		t.Errorf("read %v in order %v, want %v", got, order, want)
	}

	// A lock terraform holds (a session advisory lock on the row's id, as
	// Terraform's pg client takes it) neither blocks the read nor is broken
	// by it.
	ctx := context.Background()
	holder, err := pgx.Connect(ctx, pg.ConnStr)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Close(ctx) }()
	if _, err := holder.Exec(ctx, `SELECT pg_advisory_lock(id) FROM team.states WHERE name = 'alpha'`); err != nil {
		t.Fatal(err)
	}
	if _, _, err := read(t, s); err != nil {
		t.Fatalf("reading while a workspace is locked: %v", err)
	}
	if still := pg.Psql(t, `SELECT pg_try_advisory_lock(id) FROM team.states WHERE name = 'alpha'`); strings.TrimSpace(still) != "f" {
		t.Errorf("after the read the lock is free (pg_try_advisory_lock = %q): the read broke it", still)
	}

	bad := []struct {
		name string
		args []string
		want string
	}{
		{"wrong schema", []string{"--backend-config", "schema_name=nope"}, "schema nope: no table nope.states"},
		{"unreachable database", []string{"--backend-config", "conn_str=host=127.0.0.1 port=1 user=x dbname=y sslmode=disable connect_timeout=5"},
			"pg backend 127.0.0.1:1/y schema team: cannot connect"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			s, err := open(t, map[string]string{"PG_CONN_STR": pg.ConnStr, "PG_SCHEMA_NAME": "team"}, append([]string{"--backend", "pg"}, tc.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := read(t, s); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to say %q", err, tc.want)
			}
		})
	}

	pg.Psql(t, `CREATE SCHEMA empty; CREATE TABLE empty.states (id bigint PRIMARY KEY, name text UNIQUE, data text);`)
	s, _ = open(t, map[string]string{"PG_CONN_STR": pg.ConnStr}, "--backend", "pg", "--backend-config", "schema_name=empty")
	if _, _, err := read(t, s); err == nil || !strings.Contains(err.Error(), "the states table holds no workspace") {
		t.Errorf("no workspaces: %v", err)
	}
	pg.Psql(t, `INSERT INTO empty.states VALUES (1, 'broken', NULL)`)
	var we *statesource.WorkspaceError
	if _, _, err := read(t, s); !errors.As(err, &we) || we.Workspace != "broken" || !strings.Contains(err.Error(), `workspace "broken": its data is null`) {
		t.Errorf("null data: %v", err)
	}
}

// TestS3 reads a bucket laid out as Terraform's s3 backend lays it out:
// the default workspace at key, the others under workspace_key_prefix.
func TestS3(t *testing.T) {
	srv := acctest.StartS3(t)
	srv.CreateBucket(t, "states")
	srv.CreateBucket(t, "empty")
	srv.Put(t, "states", "team/sbx.tfstate", "D")
	srv.Put(t, "states", "env:/prod/team/sbx.tfstate", "P")
	srv.Put(t, "states", "env:/ci-1/team/sbx.tfstate", "C")
	srv.Put(t, "states", "env:/prod/other.tfstate", "not this key")
	srv.Put(t, "states", "team/sbx.tfstate.tflock", "a lock file is not a workspace")
	srv.Put(t, "states", "custom/stage/team/sbx.tfstate", "S")
	env := map[string]string{"AWS_ACCESS_KEY_ID": "AKIDTEST", "AWS_SECRET_ACCESS_KEY": "secret-key-value", "AWS_ENDPOINT_URL_S3": srv.URL}
	args := func(extra ...string) []string {
		return append([]string{"--backend", "s3", "--backend-config", "bucket=states", "--backend-config", "key=team/sbx.tfstate",
			"--backend-config", "use_path_style=true"}, extra...)
	}
	s, err := open(t, env, args()...)
	if err != nil {
		t.Fatal(err)
	}
	got, order, err := read(t, s)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"default", "ci-1", "prod"}; !slices.Equal(order, want) || got["default"] != "D" || got["prod"] != "P" || got["ci-1"] != "C" {
		t.Errorf("read %v in order %v, want %v", got, order, want)
	}
	s, _ = open(t, env, args("--backend-config", "workspace_key_prefix=custom")...)
	if got, order, err := read(t, s); err != nil || !slices.Equal(order, []string{"default", "stage"}) || got["stage"] != "S" {
		t.Errorf("workspace_key_prefix=custom: %v %v %v", got, order, err)
	}

	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"bucket without states", env, []string{"--backend", "s3", "--backend-config", "bucket=empty", "--backend-config", "key=team/sbx.tfstate", "--backend-config", "use_path_style=true"},
			"s3 backend s3://empty/team/sbx.tfstate at " + srv.URL + ": no state"},
		{"no such bucket", env, []string{"--backend", "s3", "--backend-config", "bucket=nope", "--backend-config", "key=k", "--backend-config", "use_path_style=true"},
			"s3 backend s3://nope/k at " + srv.URL + ": "},
		{"unreachable endpoint", map[string]string{"AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b", "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:1"}, args(),
			"s3 backend s3://states/team/sbx.tfstate at http://127.0.0.1:1: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := open(t, tc.env, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = read(t, s)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to say %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "secret-key-value") {
				t.Errorf("the error shows the secret key: %v", err)
			}
		})
	}
	if _, err := open(t, nil, args()...); err == nil || !strings.Contains(err.Error(), "needs AWS_ACCESS_KEY_ID") {
		t.Errorf("no credentials: %v", err)
	}
}

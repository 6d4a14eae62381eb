package acctest

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

// Postgres is a PostgreSQL cluster of one test, reached over a Unix socket
// in its own directory (no TCP port to collide with another test).
type Postgres struct {
	// ConnStr is a libpq key=value connection string for its postgres
	// database, as Terraform's pg backend (conn_str) and pgx take it.
	ConnStr string
	bin     string
}

// RequirePostgres starts a PostgreSQL cluster for the test from the
// server binaries of Debian's postgresql package (/usr/lib/postgresql/<N>/bin,
// or initdb on PATH), and stops it when the test ends. Without the binaries
// the test is skipped, unless TF_ACC is set: then it fails, since the
// acceptance tiers run against the real thing (.ci/run installs the
// package). PostgreSQL refuses to run as root, so under root the cluster
// runs as Debian's postgres user.
func RequirePostgres(t testing.TB) *Postgres {
	t.Helper()
	bin := postgresBin()
	if bin == "" {
		if os.Getenv(AccEnv) != "" {
			t.Fatalf("%s is set, but PostgreSQL's server binaries are not installed (apt-get install postgresql, or run .ci/run)", AccEnv)
		}
		t.Skip("needs PostgreSQL's server binaries (Debian's postgresql package); with TF_ACC set their absence fails")
	}
	// Not t.TempDir: its parent directories are the test user's alone
	// (0700), and the cluster may run as another user (postgres).
	dir, err := os.MkdirTemp("", "sbx-pg-") //nolint:usetesting // see above
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root, PostgreSQL needs another user, and there is no postgres user (apt-get install postgresql makes it): %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string, args ...string) {
		t.Helper()
		cmd := exec.Command(filepath.Join(bin, name), args...)
		cmd.Dir = dir
		if cred != nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	data := filepath.Join(dir, "data")
	// trust: the socket is in a directory only this cluster's user reads.
	run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")
	// -F: no fsync (a test's data need not survive a crash); no TCP listener.
	// -w waits for the server to accept connections, for clock.Patience
	// (-t; pg_ctl's own default is 60 s): a start takes well under a
	// second, and a loaded machine's slow one must not fail the test.
	run("pg_ctl", "start", "-w", "-t", strconv.Itoa(int(clock.Patience/time.Second)), "-D", data, "-l", filepath.Join(dir, "log"),
		"-o", fmt.Sprintf("-F -k %s -c listen_addresses=''", dir))
	t.Cleanup(func() {
		cmd := exec.Command(filepath.Join(bin, "pg_ctl"), "stop", "-m", "immediate", "-D", data)
		if cred != nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		}
		_ = cmd.Run() // the directory goes next; a failed stop leaves a process the next boot ends
	})
	return &Postgres{ConnStr: fmt.Sprintf("host=%s port=5432 user=postgres dbname=postgres sslmode=disable", dir), bin: bin}
}

// Psql runs SQL in the cluster's postgres database and returns its output.
func (p *Postgres) Psql(t testing.TB, sql string) string {
	t.Helper()
	out, err := exec.Command(filepath.Join(p.bin, "psql"), "-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", "-d", p.ConnStr, "-c", sql).CombinedOutput()
	if err != nil {
		t.Fatalf("psql %q: %v\n%s", sql, err, out)
	}
	return string(out)
}

// WriteStates lays out schema as Terraform's pg backend does (a states
// table of id, name, data) and writes one row per workspace: for tests
// about reading a backend, where the states need no terraform apply. With
// no states it only lays out the table.
func (p *Postgres) WriteStates(t testing.TB, schema string, states map[string]string) {
	t.Helper()
	sql := fmt.Sprintf(`CREATE SCHEMA IF NOT EXISTS %[1]s;
CREATE TABLE IF NOT EXISTS %[1]s.states (id bigserial PRIMARY KEY, name text UNIQUE, data text);`, schema)
	for ws, data := range states {
		// Dollar quoting: a state's JSON is taken as written.
		sql += fmt.Sprintf("\nINSERT INTO %s.states (name, data) VALUES ($sbx$%s$sbx$, $sbx$%s$sbx$);", schema, ws, data)
	}
	p.Psql(t, sql)
}

// postgresBin is the directory of initdb and pg_ctl: Debian keeps them out
// of PATH, under /usr/lib/postgresql/<major>/bin (the newest wins).
func postgresBin() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		a, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		b, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return a > b
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d
		}
	}
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Dir(r)
		}
	}
	return ""
}

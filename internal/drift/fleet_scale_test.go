package drift

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/drift/stategen"
	"github.com/sbxhq/terraform-provider-sbx/internal/statesource"
)

// The fleet the issue sizes drift for: 500 workspaces of 200 resources
// each (100,000 resources, ~90 MB of state) in Terraform's pg backend.
const (
	fleetScaleWorkspaces = 500
	fleetScaleResources  = 200
)

// fleetScaleSetup starts a cluster and writes the fleet's states into its
// pg backend schema with COPY; it returns the connection string and what
// every workspace's state holds.
func fleetScaleSetup(tb testing.TB) (string, stategen.Counts) {
	tb.Helper()
	pg := acctest.RequirePostgres(tb)
	pg.WriteStates(tb, "terraform_remote_state", nil)
	var buf bytes.Buffer
	counts, err := stategen.WriteV4(&buf, fleetScaleResources, driftTestNow)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg.ConnStr)
	if err != nil {
		tb.Fatal(err)
	}
	defer func() { _ = conn.Close(ctx) }()
	state := buf.String()
	rows := make([][]any, fleetScaleWorkspaces)
	for i := range rows {
		name := fmt.Sprintf("ws-%03d", i)
		if i == 0 {
			name = "default"
		}
		rows[i] = []any{name, state}
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"terraform_remote_state", "states"}, []string{"name", "data"}, pgx.CopyFromRows(rows)); err != nil {
		tb.Fatal(err)
	}
	return pg.ConnStr, counts
}

// TestFleetPGScale runs the built binary's drift over the 100,000
// resources in PostgreSQL and holds it to the bounds: under 5 s of
// wall time and under 200 MiB of peak memory (the process's maximum
// resident set, from the kernel).
func TestFleetPGScale(t *testing.T) {
	if testing.Short() {
		t.Skip("writes ~90 MB of states into PostgreSQL; run without -short")
	}
	connStr, per := fleetScaleSetup(t)
	bin, env := acctest.ProviderBinary(t)

	cmd := exec.Command(bin, "drift", "--backend", "pg", "--now", driftTestNow.Format(time.RFC3339), "--format", "json")
	cmd.Env = append(env, "PG_CONN_STR="+connStr)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if code := cmd.ProcessState.ExitCode(); code != ExitExpired {
		t.Fatalf("drift: exit %d (%v), want 2\n%s", code, err, errb.String())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no resource usage for the drift process")
	}
	peak := ru.Maxrss * 1024 // Linux reports kilobytes
	t.Logf("drift over %d workspaces of %d resources: %s, peak RSS %.1f MiB", fleetScaleWorkspaces, fleetScaleResources, elapsed.Round(time.Millisecond), float64(peak)/(1<<20))

	var rep struct {
		Workspaces []json.RawMessage `json:"workspaces"`
		Summary    struct {
			Checked, Expired int
		} `json:"summary"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report: %v", err)
	}
	if len(rep.Workspaces) != fleetScaleWorkspaces || rep.Summary.Checked != fleetScaleWorkspaces*per.Checked || rep.Summary.Expired != fleetScaleWorkspaces*per.Expired {
		t.Errorf("report: %d workspaces, %+v; want %d, %d checked, %d expired", len(rep.Workspaces), rep.Summary,
			fleetScaleWorkspaces, fleetScaleWorkspaces*per.Checked, fleetScaleWorkspaces*per.Expired)
	}
	if elapsed > 5*time.Second {
		t.Errorf("drift took %s, want under 5 s", elapsed)
	}
	if peak > 200<<20 {
		t.Errorf("drift's peak RSS %.1f MiB, want under 200 MiB", float64(peak)/(1<<20))
	}
}

// BenchmarkFleetPG measures DetectSource over the same fleet, in process:
// time per run and allocations.
func BenchmarkFleetPG(b *testing.B) {
	connStr, per := fleetScaleSetup(b)
	b.Setenv("PG_CONN_STR", connStr)
	c := fleetFlags(b)
	src, err := c.Open(os.Getenv)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rep, err := DetectSource(context.Background(), src, nil, false, driftTestNow, 72*time.Hour)
		if err != nil {
			b.Fatal(err)
		}
		if rep.Expired != fleetScaleWorkspaces*per.Expired {
			b.Fatalf("expired %d, want %d", rep.Expired, fleetScaleWorkspaces*per.Expired)
		}
	}
}

// fleetFlags are the --backend pg flags, parsed.
func fleetFlags(tb testing.TB) *statesource.Config {
	tb.Helper()
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	c := statesource.RegisterFlags(fs)
	if err := fs.Parse([]string{"--backend", "pg"}); err != nil {
		tb.Fatal(err)
	}
	return c
}

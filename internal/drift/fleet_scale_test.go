package drift

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
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
// resources in PostgreSQL: the report holds every workspace and every
// finding, and the process's peak memory (its maximum resident set, from
// the kernel) stays under the 200 MiB, which no slowness of the
// machine changes. How long drift takes is a figure, not a pass or a fail:
// BenchmarkFleetPG measures it.
func TestFleetPGScale(t *testing.T) {
	if testing.Short() {
		t.Skip("writes ~90 MB of states into PostgreSQL; run without -short")
	}
	connStr, per := fleetScaleSetup(t)
	bin, env := acctest.ProviderBinary(t)

	out, peak := fleetDriftBinary(t, bin, env, connStr)
	t.Logf("drift over %d workspaces of %d resources: peak RSS %.1f MiB", fleetScaleWorkspaces, fleetScaleResources, float64(peak)/(1<<20))

	var rep struct {
		Workspaces []json.RawMessage `json:"workspaces"`
		Summary    struct {
			Checked, Expired int
		} `json:"summary"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("report: %v", err)
	}
	if len(rep.Workspaces) != fleetScaleWorkspaces || rep.Summary.Checked != fleetScaleWorkspaces*per.Checked || rep.Summary.Expired != fleetScaleWorkspaces*per.Expired {
		t.Errorf("report: %d workspaces, %+v; want %d, %d checked, %d expired", len(rep.Workspaces), rep.Summary,
			fleetScaleWorkspaces, fleetScaleWorkspaces*per.Checked, fleetScaleWorkspaces*per.Expired)
	}
	if peak > 200<<20 {
		t.Errorf("drift's peak RSS %.1f MiB, want under 200 MiB", float64(peak)/(1<<20))
	}
}

// fleetDriftBinary runs the built binary's drift over the fleet's pg
// backend and returns its JSON report and its peak resident set in bytes;
// an exit other than 2 (something expired) fails tb.
func fleetDriftBinary(tb testing.TB, bin string, env []string, connStr string) ([]byte, int64) {
	tb.Helper()
	cmd := exec.Command(bin, "drift", "--backend", "pg", "--now", driftTestNow.Format(time.RFC3339), "--format", "json")
	cmd.Env = append(slices.Clone(env), "PG_CONN_STR="+connStr)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != ExitExpired {
		tb.Fatalf("drift: exit %d (%v), want 2\n%s", code, err, errb.String())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		tb.Fatal("no resource usage for the drift process")
	}
	return out.Bytes(), ru.Maxrss * 1024 // Linux reports kilobytes
}

// BenchmarkFleetPG measures drift over the same fleet. binary runs the
// built binary as a user does, from its start to its report: its time per
// run is the wall time the issue sizes drift by (about a second on a quiet
// machine, 5 s at most), reported with its peak RSS. in_process measures
// DetectSource alone, with allocations. The figures are for reading, not
// a test's pass or fail:
//
//	TF_ACC=1 go test -run '^$' -bench BenchmarkFleetPG -benchtime 5x ./internal/drift
func BenchmarkFleetPG(b *testing.B) {
	connStr, per := fleetScaleSetup(b)
	b.Run("binary", func(b *testing.B) {
		bin, env := acctest.ProviderBinary(b)
		var peak int64
		b.ResetTimer()
		for b.Loop() {
			_, p := fleetDriftBinary(b, bin, env, connStr)
			peak = max(peak, p)
		}
		b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
	})
	b.Run("in_process", func(b *testing.B) {
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
	})
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

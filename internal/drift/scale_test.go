package drift

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/drift/stategen"
)

// driftTestGenerate writes a generated state with n resources to a temp file.
func driftTestGenerate(tb testing.TB, n int) (string, stategen.Counts) {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "state.tfstate")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := stategen.WriteV4(f, n, driftTestNow)
	if err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path, c
}

func TestDrift100k(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 90 MB state; run without -short")
	}
	path, want := driftTestGenerate(t, 100000)
	if want.Resources != 100000 || want.Expired == 0 || want.Expiring == 0 {
		t.Fatalf("generator counts look wrong: %+v", want)
	}

	var out, errb bytes.Buffer
	args := []string{"--now", driftTestNow.Format(time.RFC3339), "--format", "json", path}
	code := Main(args, strings.NewReader(""), &out, &errb, nil)
	if code != ExitExpired {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	rep, err := Detect(f, driftTestNow, 72*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Checked != want.Checked || rep.Expired != want.Expired || rep.Expiring != want.Expiring ||
		rep.OK != want.OK || rep.NoDeadline != want.NoDeadline {
		t.Errorf("report checked %d expired %d expiring %d ok %d none %d, generated %+v",
			rep.Checked, rep.Expired, rep.Expiring, rep.OK, rep.NoDeadline, want)
	}
	if len(rep.Findings) != want.Expired+want.Expiring {
		t.Errorf("findings = %d, want %d", len(rep.Findings), want.Expired+want.Expiring)
	}
	if !strings.Contains(out.String(), `"expired": 10000`) {
		t.Errorf("CLI JSON summary does not show 10000 expired")
	}
}

// BenchmarkDrift100k measures one detector run over a generated state of
// 100,000 resources (~90 MB): time per run and allocations.
func BenchmarkDrift100k(b *testing.B) {
	path, want := driftTestGenerate(b, 100000)
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		rep, err := Detect(f, driftTestNow, 72*time.Hour)
		_ = f.Close()
		if err != nil {
			b.Fatal(err)
		}
		if rep.Expired != want.Expired {
			b.Fatalf("expired %d, want %d", rep.Expired, want.Expired)
		}
		if err := WriteTable(io.Discard, rep, false); err != nil {
			b.Fatal(err)
		}
	}
}

package modalfake

import (
	"fmt"
	"strings"
	"testing"
)

// recordingTB keeps what a workspace's cleanup reports instead of failing.
type recordingTB struct {
	testing.TB
	errs     []string
	cleanups []func()
}

func (r *recordingTB) Helper()                   {}
func (r *recordingTB) Cleanup(fn func())         { r.cleanups = append(r.cleanups, fn) }
func (r *recordingTB) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }

// The cleanup names every unimplemented RPC and every violation.
func TestCleanupReports(t *testing.T) {
	rec := &recordingTB{TB: t}
	w := srv.NewWorkspace(rec)
	w.recordUnimplemented("SandboxGetLogs")
	w.violation("SandboxWait: missing x-idempotency-key metadata")
	for _, fn := range rec.cleanups {
		fn()
	}
	got := strings.Join(rec.errs, "\n")
	if !strings.Contains(got, "unimplemented RPC called: SandboxGetLogs") || !strings.Contains(got, "missing x-idempotency-key") {
		t.Errorf("cleanup reported:\n%s", got)
	}
}

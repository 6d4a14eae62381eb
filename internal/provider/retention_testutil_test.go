package provider

import (
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

// retentionTestPolicy is the policy of the registered platforms' rows
// (Platforms) with overrides, for tests of code that judges deadlines.
func retentionTestPolicy(t testing.TB, overrides map[string]time.Duration) retention.Policy {
	t.Helper()
	p, err := platform.RetentionTable(platforms.All()).NewPolicy(overrides)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRetentionTestPolicies(t *testing.T) {
	registered := retentionTestPolicy(t, map[string]time.Duration{"paused_sandbox": time.Hour})
	if got, want := len(registered.Table().Rules()), len(platform.RetentionTable(platforms.All()).Rules()); got != want {
		t.Errorf("retentionTestPolicy has %d rows, want the registered %d", got, want)
	}
	if w := registered.Window(retention.Rule{Key: "paused_sandbox"}); w != time.Hour {
		t.Errorf("override not applied: %s", w)
	}
	created := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	modal := retention.Object{Platform: "modal", Kind: retention.Snapshot, State: retention.KindMemory, CreatedAt: created}
	if d, ok := registered.Deadline(modal, created); !ok || d.Rule != "memory_snapshot" {
		t.Errorf("a registered platform's row gives no deadline: %+v %v", d, ok)
	}
}

package e2b

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

const e2bTestKey = "e2b_test_key_0123456789"

// e2bTestPlatform starts a fake and a platform talking to it; nothing sleeps. The fake's spec violations fail the test.
func e2bTestPlatform(t *testing.T, opts e2bfake.Options) (*Platform, *e2bfake.Server) {
	t.Helper()
	opts.APIKey = e2bTestKey
	fake := e2bfake.New(t, opts)
	p, err := New(Config{
		APIKey: e2bTestKey, APIURL: fake.URL(), Tier: TierPro, MaxRetries: 4,
		// Retries and build polls go on at once: the fake needs no waiting.
		Sleep:        func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
		PollInterval: time.Millisecond,
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() {
		if v := fake.SpecViolations(); len(v) > 0 {
			t.Errorf("requests or responses broke the E2B spec:\n%v", v)
		}
	})
	return p, fake
}

// e2bTestContext writes a small build context and returns its directory.
func e2bTestContext(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

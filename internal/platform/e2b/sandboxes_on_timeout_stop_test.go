package e2b

import (
	"context"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// TestSandboxOnTimeoutStopOnFake: on_timeout = "stop" is E2B's pause
// without memory at the timeout (autoPause with autoPauseMemory = false),
// is read back as stop (E2B reports it as a pause) and on the timeout the
// box is paused without its memory.
func TestSandboxOnTimeoutStopOnFake(t *testing.T) {
	clock := clock.NewFake(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	p, fake := e2bTestPlatform(t, e2bfake.Options{Clock: clock})
	ctx := context.Background()
	tpl := e2bTestTemplate(t, p)
	for _, tc := range []struct {
		onTimeout            platform.OnTimeoutAction
		autoPause, memory    bool
		want                 platform.OnTimeoutAction
		pausedAfter, keptMem bool
	}{
		{onTimeout: platform.OnTimeoutStop, autoPause: true, memory: false, want: platform.OnTimeoutStop, pausedAfter: true},
		{onTimeout: platform.OnTimeoutPause, autoPause: true, memory: true, want: platform.OnTimeoutPause, pausedAfter: true, keptMem: true},
		{onTimeout: platform.OnTimeoutKill, memory: true},
	} {
		t.Run(string(tc.onTimeout), func(t *testing.T) {
			sb, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: tpl,
				Lifecycle: platform.Lifecycle{Timeout: time.Minute, OnTimeout: tc.onTimeout}})
			if err != nil {
				t.Fatalf("Create: %v", err)
			}
			v, _ := fake.Sandbox(sb.ID)
			if v.AutoPause != tc.autoPause || v.AutoPauseMemory != tc.memory {
				t.Errorf("created with autoPause %t, autoPauseMemory %t; want %t, %t", v.AutoPause, v.AutoPauseMemory, tc.autoPause, tc.memory)
			}
			got, err := p.Sandboxes().Get(ctx, sb.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Lifecycle.OnTimeout != tc.want {
				t.Errorf("read back on_timeout %q, want %q", got.Lifecycle.OnTimeout, tc.want)
			}
			// The timeout changes in place and keeps on_timeout.
			if _, err := p.Sandboxes().Update(ctx, sb.ID, platform.SandboxUpdate{Lifecycle: &platform.LifecycleUpdate{
				Lifecycle: platform.Lifecycle{Timeout: 2 * time.Minute, OnTimeout: tc.onTimeout},
				Changed:   []string{platform.AttrSandboxTimeout}}}); err != nil {
				t.Fatalf("timeout in place: %v", err)
			}
			clock.Advance(3 * time.Minute)
			v, ok := fake.Sandbox(sb.ID)
			if ok != tc.pausedAfter || (ok && (v.State != "paused" || v.PausedWithMemory != tc.keptMem)) {
				t.Errorf("after the timeout: exists %t, %+v; want paused %t with memory %t", ok, v, tc.pausedAfter, tc.keptMem)
			}
		})
	}
}

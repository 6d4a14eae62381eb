package e2b

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// TestBuildStatusPollsBackOff: the waits between a build's status reads
// start short and double up to the poll interval, so a build E2B finishes
// at once is not waited on for a whole interval.
func TestBuildStatusPollsBackOff(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name     string
		interval time.Duration // Config.PollInterval; 0 is the default, 2s
		polls    int           // status reads until the fake says ready
		want     []time.Duration
	}{
		{name: "ready at the second read", polls: 2, want: []time.Duration{250 * ms}},
		{name: "default interval caps the doubling", polls: 7,
			want: []time.Duration{250 * ms, 500 * ms, time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second}},
		{name: "a shorter interval caps it sooner", interval: 600 * ms, polls: 4,
			want: []time.Duration{250 * ms, 500 * ms, 600 * ms}},
		{name: "an interval below the first wait is every wait", interval: ms, polls: 3,
			want: []time.Duration{ms, ms}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := e2bfake.New(t, e2bfake.Options{APIKey: e2bTestKey, BuildPolls: tt.polls})
			var waits []time.Duration
			p, err := New(Config{
				APIKey: e2bTestKey, APIURL: fake.URL(), Tier: TierPro, MaxRetries: 4,
				PollInterval: tt.interval,
				Sleep:        func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
				PollSleep: func(ctx context.Context, d time.Duration) error {
					waits = append(waits, d)
					return ctx.Err()
				},
			})
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			if _, err := p.Templates().Create(context.Background(), platform.TemplateSpec{Name: "polled", Dockerfile: "FROM alpine\nRUN true\n"}); err != nil {
				t.Fatalf("Create: %v", err)
			}
			if !slices.Equal(waits, tt.want) {
				t.Errorf("waits between status reads = %v, want %v", waits, tt.want)
			}
		})
	}
}

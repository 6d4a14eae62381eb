package e2b

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/lostcreate"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// Config.LookupSleep, when set, is what the lookups wait with (not Sleep),
// and a context that ends while they wait stops them: the create fails at
// once, still saying it may have happened, and is not sent again.
func TestLostCreateLookupSleepAndContextOnFake(t *testing.T) {
	clock := clock.NewFake(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	fake := e2bfake.New(t, e2bfake.Options{APIKey: e2bTestKey, Clock: clock, ListLag: time.Minute})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var lookupWaits, retryWaits int
	p, err := New(Config{
		APIKey: e2bTestKey, APIURL: fake.URL(), Tier: TierPro, MaxRetries: 4,
		Sleep: func(ctx context.Context, _ time.Duration) error { retryWaits++; return ctx.Err() },
		LookupSleep: func(ctx context.Context, d time.Duration) error {
			lookupWaits++
			clock.Advance(d)
			if lookupWaits == 2 {
				cancel() // the apply is interrupted while the client waits
			}
			return ctx.Err()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	fake.Inject("POST /volumes", e2bfake.Fault{DropAfterHandling: true})
	_, err = p.Volumes().Create(ctx, platform.VolumeSpec{Name: "lagged"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Create = %v, want the cancellation", err)
	}
	var lost *lostcreate.Error
	if !errors.As(err, &lost) || !errors.Is(err, rest.ErrMaybeApplied) || lost.Waited != time.Second {
		t.Errorf("error does not say the volume may have been made and that the lookups stopped after 1s: %v", err)
	}
	if lookupWaits != 2 || retryWaits != 0 {
		t.Errorf("lookup waits = %d, retry waits = %d; want 2 lookup waits (the second cancelled) and no retry wait", lookupWaits, retryWaits)
	}
	if n := fake.Requests("POST /volumes"); n != 1 || len(fake.Volumes()) != 1 {
		t.Errorf("POST /volumes sent %d times, %d volumes; want 1 and 1", n, len(fake.Volumes()))
	}
}

// The lookups after a lost answer wait 1, 2, 4 and 5 s: a few lookups,
// twice as far apart each time, over lostcreate.Bound (12 s) in all.
func TestFindLostSchedule(t *testing.T) {
	var waits []time.Duration
	p := &Platform{lookupSleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
	lookups := 0
	found, waited, err := p.findLost(context.Background(), func(context.Context) (bool, error) { lookups++; return false, nil })
	if found || err != nil || waited != lostcreate.Bound || lookups != 5 {
		t.Errorf("findLost = %v, %s, %v after %d lookups; want not found after 12s and 5 lookups", found, waited, err, lookups)
	}
	if want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second}; !slices.Equal(waits, want) {
		t.Errorf("waits = %v, want %v", waits, want)
	}
	lookups = 0
	found, waited, err = p.findLost(context.Background(), func(context.Context) (bool, error) { lookups++; return lookups == 3, nil })
	if !found || err != nil || waited != 3*time.Second {
		t.Errorf("findLost = %v, %s, %v; want found at the third lookup, after 3s", found, waited, err)
	}
	lookups = 0
	boom := errors.New("boom")
	if found, _, err := p.findLost(context.Background(), func(context.Context) (bool, error) { lookups++; return false, boom }); found || !errors.Is(err, boom) || lookups != 1 {
		t.Errorf("a failed lookup: found %v, err %v after %d lookups; want it to stop at once with its error", found, err, lookups)
	}
}

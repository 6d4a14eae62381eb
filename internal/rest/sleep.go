package rest

import (
	"context"
	"time"
)

// SleepContext waits d, or less when ctx ends first, and then returns ctx's
// error. It is the default Config.Sleep, and the platforms' default for
// their own waits (polls, lookups), so every wait of the provider gives up
// the same way when an apply is interrupted.
func SleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// SleepOr returns the first of sleeps that is set, else SleepContext. A
// platform's own waits default to the retry Sleep a test injects (so one
// hook stops every wait), else to the timer.
func SleepOr(sleeps ...func(context.Context, time.Duration) error) func(context.Context, time.Duration) error {
	for _, s := range sleeps {
		if s != nil {
			return s
		}
	}
	return SleepContext
}

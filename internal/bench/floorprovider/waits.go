package main

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// waitsEnv names the variable that makes the floor wait in each operation
// as long as the provider's API calls there take, e.g.
// "create=100ms,read=50ms,delete=50ms": two calls of 50 ms per create, one
// per read and per delete. The waits cost no CPU. With them the floor shows
// what Terraform's scheduling makes of the API's latency alone: a read
// holds one of Terraform's -parallelism slots for its whole wait, so a
// provider that must call the API per box cannot plan faster than this.
const waitsEnv = "SBX_FLOOR_WAITS"

// waits is how long each resource operation waits; zero waits not at all.
type waits struct {
	create, read, update, delete time.Duration
}

// parseWaits reads "op=duration" pairs separated by commas; an empty text
// is no waits.
func parseWaits(text string) (waits, error) {
	var w waits
	if strings.TrimSpace(text) == "" {
		return w, nil
	}
	for _, pair := range strings.Split(text, ",") {
		op, value, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok {
			return waits{}, fmt.Errorf("%s: %q is not op=duration", waitsEnv, pair)
		}
		d, err := time.ParseDuration(value)
		if err != nil || d < 0 {
			return waits{}, fmt.Errorf("%s: %s=%q is not a duration of 0 or more, such as 50ms", waitsEnv, op, value)
		}
		switch op {
		case "create":
			w.create = d
		case "read":
			w.read = d
		case "update":
			w.update = d
		case "delete":
			w.delete = d
		default:
			return waits{}, fmt.Errorf("%s: unknown operation %q; want create, read, update or delete", waitsEnv, op)
		}
	}
	return w, nil
}

// wait waits d, or until ctx ends.
func wait(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

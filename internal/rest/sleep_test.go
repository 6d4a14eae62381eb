package rest

import (
	"context"
	"errors"
	"testing"
	"time"
)

// SleepContext's answer tells how its wait ended: nil once the timer ran
// out (a context that never ends leaves it nothing else), the context's
// error once the context ended first, which an hour's timer proves.
func TestSleepContext(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name string
		ctx  context.Context
		d    time.Duration
		want error
	}{
		{"waits the time out", context.Background(), time.Millisecond, nil},
		{"no wait", context.Background(), 0, nil},
		{"negative wait", context.Background(), -time.Second, nil},
		{"ended context, no wait", cancelled, 0, context.Canceled},
		{"ended context stops a long wait", cancelled, time.Hour, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := SleepContext(tt.ctx, tt.d); !errors.Is(err, tt.want) {
				t.Errorf("SleepContext(%s) = %v, want %v", tt.d, err, tt.want)
			}
		})
	}
}

func TestSleepOr(t *testing.T) {
	errA, errB := errors.New("a"), errors.New("b")
	a := func(context.Context, time.Duration) error { return errA }
	b := func(context.Context, time.Duration) error { return errB }
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		sleeps []func(context.Context, time.Duration) error
		want   error // what the chosen sleep returns on a cancelled context
	}{
		{"the first set", []func(context.Context, time.Duration) error{a, b}, errA},
		{"skips unset ones", []func(context.Context, time.Duration) error{nil, b}, errB},
		{"none set: the timer", []func(context.Context, time.Duration) error{nil, nil}, context.Canceled},
		{"none given: the timer", nil, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := SleepOr(tt.sleeps...)(cancelled, time.Hour); !errors.Is(err, tt.want) {
				t.Errorf("chosen sleep returned %v, want %v", err, tt.want)
			}
		})
	}
}

package clock

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

type waitTestKey struct{}

// A Deadline is live until passed, then done as a context past its
// deadline is, children included; it keeps its parent's values and
// reports no deadline.
func TestDeadline(t *testing.T) {
	parent := context.WithValue(context.Background(), waitTestKey{}, "v")
	d := NewDeadline(parent)
	child, cancel := context.WithCancel(d)
	defer cancel()
	if d.Err() != nil || child.Err() != nil {
		t.Fatalf("before Pass: %v, child %v", d.Err(), child.Err())
	}
	if _, ok := d.Deadline(); ok {
		t.Error("a Deadline reports a deadline")
	}
	if d.Value(waitTestKey{}) != "v" {
		t.Error("the parent's value is lost")
	}
	select {
	case <-d.Done():
		t.Fatal("done before Pass")
	default:
	}
	d.Pass()
	d.Pass()
	<-d.Done()
	<-child.Done()
	if !errors.Is(d.Err(), context.DeadlineExceeded) || !errors.Is(child.Err(), context.DeadlineExceeded) {
		t.Errorf("after Pass: %v, child %v; want DeadlineExceeded", d.Err(), child.Err())
	}
}

// PassWhen passes the deadline once its condition holds, and not before.
func TestDeadlinePassWhen(t *testing.T) {
	d := NewDeadline(context.Background())
	var ready, asked atomic.Int32
	d.PassWhen(func() bool { asked.Add(1); return ready.Load() == 1 })
	if !Eventually(func() bool { return asked.Load() >= 2 }) {
		t.Fatal("the condition was not asked again")
	}
	if d.Err() != nil {
		t.Fatal("passed before its condition held")
	}
	ready.Store(1)
	<-d.Done()
}

// Eventually is true once its condition holds, asking again until then.
func TestEventually(t *testing.T) {
	n := 0
	if !Eventually(func() bool { n++; return n == 3 }) || n != 3 {
		t.Errorf("Eventually asked %d times, want 3 and true", n)
	}
	stop := make(chan struct{})
	close(stop)
	if eventually(stop, func() bool { return false }) {
		t.Error("a stopped eventually reported the condition")
	}
}

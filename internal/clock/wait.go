package clock

import (
	"context"
	"sync"
	"time"
)

// Patience is how long a test waits for what happens by itself in real
// time (a fake's timer, a cut connection, another process's exit) before it
// gives up. Each of those takes milliseconds, a second at most on a CI
// runner with two CPUs at a load of 45; Patience is many times that, so it
// is generous to a machine ten times slower and ends a test only when the
// thing never comes.
const Patience = 2 * time.Minute

// pollEvery is how often Eventually asks.
const pollEvery = 5 * time.Millisecond

// Eventually reports whether cond holds within Patience, asking at once
// and then every few milliseconds.
func Eventually(cond func() bool) bool {
	return eventually(nil, cond)
}

// eventually is Eventually that also stops, false, once stop is closed.
func eventually(stop <-chan struct{}, cond func() bool) bool {
	giveUp := time.NewTimer(Patience)
	defer giveUp.Stop()
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for !cond() {
		select {
		case <-stop:
			return false
		case <-giveUp.C:
			return false
		case <-tick.C:
		}
	}
	return true
}

// Deadline is a context whose deadline passes when the test says so
// (Pass, PassWhen) rather than at an instant of the wall clock, which a
// loaded machine may reach before the call it bounds has got where the test
// means it to be (sent, held by the fake, running). Once passed it is done,
// its Err context.DeadlineExceeded, as a context whose deadline passed is.
// It reports no deadline (Deadline says none), so no code decides ahead of
// time, from the wall clock, that a wait would not fit; it keeps its
// parent's values, not its parent's end.
type Deadline struct {
	context.Context
	done chan struct{}
	once sync.Once
}

// NewDeadline returns a Deadline whose values are parent's.
func NewDeadline(parent context.Context) *Deadline {
	return &Deadline{Context: parent, done: make(chan struct{})}
}

// Pass ends the context with context.DeadlineExceeded; a second Pass does
// nothing.
func (d *Deadline) Pass() { d.once.Do(func() { close(d.done) }) }

// PassWhen passes the deadline once cond holds, asked as Eventually asks,
// from a goroutine of its own; it returns at once. The deadline passes
// after Patience too, so a call waiting on it ends even when cond never
// comes (the test then fails on what the call returned). A Pass before
// that stops the asking.
func (d *Deadline) PassWhen(cond func() bool) {
	go func() {
		eventually(d.done, cond)
		d.Pass()
	}()
}

// Deadline reports none: the deadline is the test's to pass.
func (d *Deadline) Deadline() (time.Time, bool) { return time.Time{}, false }

// Done is closed once the deadline has passed.
func (d *Deadline) Done() <-chan struct{} { return d.done }

// Err is context.DeadlineExceeded once the deadline has passed, else nil.
func (d *Deadline) Err() error {
	select {
	case <-d.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

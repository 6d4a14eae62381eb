package clock

import (
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func TestFake(t *testing.T) {
	c := NewFake(t0)
	var _ Clock = c
	var _ Clock = System{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				c.Advance(time.Second)
				_ = c.Now()
			}
		}()
	}
	wg.Wait()
	if got := c.Now(); !got.Equal(t0.Add(800 * time.Second)) {
		t.Errorf("after concurrent advances Now = %s, want %s", got, t0.Add(800*time.Second))
	}
	c.Set(t0)
	if !c.Now().Equal(t0) {
		t.Errorf("Set did not move the clock")
	}
	if System.Now(System{}).IsZero() {
		t.Error("system clock returned zero time")
	}
}

package rest

import (
	"net/http"
	"testing"
	"time"
)

func TestBackoffBounds(t *testing.T) {
	c, err := New(Config{BaseURL: "https://x.io", MinWait: time.Second, MaxWait: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for retry := range 70 { // far past the shift that would overflow
		ceiling := min(30*time.Second, time.Second<<min(retry, 10))
		var top time.Duration
		for range 200 {
			d := c.backoff(retry)
			if d < time.Second || d > ceiling {
				t.Fatalf("retry %d: wait %s outside [1s, %s]", retry, d, ceiling)
			}
			top = max(top, d)
		}
		if retry >= 3 && top < ceiling/2 {
			t.Errorf("retry %d: 200 waits all below %s; the jitter does not spread to the ceiling %s", retry, top, ceiling)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		header http.Header
		want   time.Duration
		wantOK bool
	}{
		{"none", http.Header{}, 0, false},
		{"seconds", http.Header{"Retry-After": {"3"}}, 3 * time.Second, true},
		{"zero", http.Header{"Retry-After": {"0"}}, 0, true},
		{"fraction rounds up", http.Header{"Retry-After": {"0.0001"}}, time.Millisecond, true},
		{"HTTP-date", http.Header{"Retry-After": {now.Add(90 * time.Second).Format(http.TimeFormat)}}, 90 * time.Second, true},
		{"HTTP-date in the past", http.Header{"Retry-After": {now.Add(-time.Hour).Format(http.TimeFormat)}}, 0, true},
		{"throttler headers, largest wins", http.Header{"Retry-After-Short": {"1"}, "Retry-After-Long": {"60"}, "Retry-After-Medium": {"10"}}, time.Minute, true},
		{"garbage ignored", http.Header{"Retry-After": {"soon"}, "Retry-After-X": {"2"}}, 2 * time.Second, true},
		{"negative ignored", http.Header{"Retry-After": {"-5"}}, 0, false},
		{"absurd value capped", http.Header{"Retry-After": {"1e300"}}, maxRetryAfter, true},
		{"unrelated header", http.Header{"Retry-Afterwards": {"5"}}, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := retryAfter(tc.header, now)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("retryAfter = %s, %v; want %s, %v", got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

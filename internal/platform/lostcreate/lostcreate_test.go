package lostcreate

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestFind(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name       string
		foundAt    int   // the lookup that finds the object; 0: none does
		lookupErr  error // every lookup's error
		sleepErr   error // every wait's error
		wantFound  bool
		wantWaited time.Duration
		wantWaits  []time.Duration
		wantErr    error
	}{
		{name: "never found", wantWaited: Bound,
			wantWaits: []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second}},
		{name: "found at once", foundAt: 1, wantFound: true},
		{name: "found at the third lookup", foundAt: 3, wantFound: true, wantWaited: 3 * time.Second,
			wantWaits: []time.Duration{time.Second, 2 * time.Second}},
		{name: "a lookup fails", lookupErr: boom, wantErr: boom},
		{name: "the wait ends", sleepErr: context.Canceled, wantErr: context.Canceled, wantWaits: []time.Duration{time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var waits []time.Duration
			sleep := func(_ context.Context, d time.Duration) error {
				waits = append(waits, d)
				return tt.sleepErr
			}
			lookups := 0
			find := func(context.Context) (bool, error) {
				lookups++
				return lookups == tt.foundAt, tt.lookupErr
			}
			found, waited, err := Find(context.Background(), sleep, find)
			if found != tt.wantFound || waited != tt.wantWaited || !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Errorf("Find = %v, %s, %v; want %v, %s, %v", found, waited, err, tt.wantFound, tt.wantWaited, tt.wantErr)
			}
			if len(waits) != len(tt.wantWaits) {
				t.Fatalf("waits = %v, want %v", waits, tt.wantWaits)
			}
			for i := range waits {
				if waits[i] != tt.wantWaits[i] {
					t.Errorf("waits = %v, want %v", waits, tt.wantWaits)
				}
			}
		})
	}
}

func TestError(t *testing.T) {
	sent := errors.New("POST /boxes: no response")
	tests := []struct {
		name   string
		err    *Error
		want   []string
		wraps  []error
		absent string
	}{
		{
			name: "not listed",
			err:  &Error{What: `volume "data"`, Err: sent, Waited: 12 * time.Second, NotListed: "Still not listed.", Find: "Look for it."},
			want: []string{`creating the volume "data": the answer was lost, so the volume "data" may have been made (POST /boxes: no response). `,
				"Still not listed. The create was not sent again, so that it cannot make a second one. Look for it."},
			wraps: []error{sent},
		},
		{
			name:  "lookups stopped",
			err:   &Error{What: "sandbox", Err: sent, Waited: time.Second, Lookup: context.Canceled, NotListed: "Still not listed.", Find: "Look for it."},
			want:  []string{"Looking for it stopped after 1s: context canceled. ", "Look for it."},
			wraps: []error{sent, context.Canceled}, absent: "Still not listed.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg := tt.err.Error()
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("Error() = %q, want it to contain %q", msg, w)
				}
			}
			if tt.absent != "" && strings.Contains(msg, tt.absent) {
				t.Errorf("Error() = %q, want no %q", msg, tt.absent)
			}
			for _, w := range tt.wraps {
				if !errors.Is(tt.err, w) {
					t.Errorf("errors.Is(err, %v) = false", w)
				}
			}
		})
	}
}

func TestOrphansCommand(t *testing.T) {
	tests := []struct{ owner, want string }{
		{"", "terraform state pull | terraform-provider-sbx orphans -"},
		{"ci-agents", `terraform state pull | terraform-provider-sbx orphans --owner "ci-agents" -`},
	}
	for _, tt := range tests {
		if got := OrphansCommand(tt.owner); got != tt.want {
			t.Errorf("OrphansCommand(%q) = %q, want %q", tt.owner, got, tt.want)
		}
	}
}

package e2b

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bBeforeSnapshotPost runs hook once, just before the first
// POST .../snapshots is sent: another snapshot of the same box taken while
// this one is in flight.
type e2bBeforeSnapshotPost struct {
	once sync.Once
	hook func()
}

func (b *e2bBeforeSnapshotPost) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/snapshots") {
		b.once.Do(b.hook)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestSnapshotCreateAnswerLostWhileAnotherIsTakenOnFake: a snapshot create
// whose answer is lost while another snapshot of the same box is taken must
// adopt its own snapshot (by name), or refuse when nothing tells the two
// apart, and never adopt the other one or send the create again.
func TestSnapshotCreateAnswerLostWhileAnotherIsTakenOnFake(t *testing.T) {
	for _, tc := range []struct {
		name             string
		mine, theirs     string
		wantErrFragment  string
		wantFakeSnapshot int
	}{
		{name: "named snapshots are told apart", mine: "mine", theirs: "theirs", wantFakeSnapshot: 2},
		{name: "unnamed snapshots are ambiguous", wantErrFragment: "new snapshots of the sandbox appeared meanwhile", wantFakeSnapshot: 2},
		{name: "only theirs is named", theirs: "theirs", wantFakeSnapshot: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			other, fake := e2bTestPlatform(t, e2bfake.Options{})
			ctx := context.Background()
			box, err := other.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: e2bTestTemplate(t, other)})
			if err != nil {
				t.Fatal(err)
			}
			var theirs *platform.Snapshot
			rt := &e2bBeforeSnapshotPost{hook: func() {
				var herr error
				theirs, herr = other.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: box.ID, Name: tc.theirs, IncludeMemory: true})
				if herr != nil {
					t.Errorf("the other snapshot: %v", herr)
				}
				// Injected now so it hits this create, not the other one.
				fake.Inject("POST /sandboxes/{sandboxID}/snapshots", e2bfake.Fault{DropAfterHandling: true})
			}}
			p, err := New(Config{
				APIKey: e2bTestKey, APIURL: fake.URL(), Tier: TierPro, MaxRetries: 4,
				Sleep:      func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
				HTTPClient: &http.Client{Transport: rt},
			})
			if err != nil {
				t.Fatal(err)
			}
			mine, err := p.Snapshots().Create(ctx, platform.SnapshotSpec{SandboxID: box.ID, Name: tc.mine, IncludeMemory: true})
			if theirs == nil {
				t.Fatal("the other snapshot was not taken")
			}
			if got := fake.Requests("POST /sandboxes/{sandboxID}/snapshots"); got != 2 {
				t.Errorf("snapshot creates sent = %d, want 2 (theirs and one of mine, never repeated)", got)
			}
			if n := len(fake.Snapshots()); n != tc.wantFakeSnapshot {
				t.Errorf("fake holds %d snapshots, want %d", n, tc.wantFakeSnapshot)
			}
			if tc.wantErrFragment != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErrFragment) {
					t.Fatalf("Create = %+v, %v; want an error containing %q", mine, err, tc.wantErrFragment)
				}
				return
			}
			if err != nil {
				t.Fatalf("Create: %v", err)
			}
			if mine.ID == theirs.ID {
				t.Fatalf("adopted the other create's snapshot %s", theirs.ID)
			}
			if mine.Name != tc.mine {
				t.Errorf("adopted snapshot name = %q, want %q", mine.Name, tc.mine)
			}
		})
	}
}

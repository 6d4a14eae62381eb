package modalfake

import (
	"fmt"
	"sort"
	"testing"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// Workspace is one isolated tenant of the fake: its own credentials, clock,
// objects, faults and call log. Its methods are safe for concurrent use.
type Workspace struct {
	s           *Server
	t           testing.TB
	tokenID     string
	tokenSecret string
	now         time.Time
	lastStamp   float64 // last sandbox created_at handed out, kept strictly increasing
	// instant settles new objects at once instead of after a read (async.go).
	instant bool

	calls         map[string]int
	throttles     map[string]*throttle
	drops         map[string]int
	fails         map[string]*codeFault
	cuts          map[string]int
	holds         map[string]*holdFault
	sequences     map[string][]Step
	faulted       fakeapi.RetryMemo // idempotency keys whose last call drew a Sequence fault
	answers       map[string]answer // method + "\x00" + x-idempotency-key
	unimplemented []string
	violations    []string

	envID     string
	apps      map[string]*app // by id
	images    map[string]*image
	imageKeys map[string]string // content key → image id
	sandboxes map[string]*sandbox
	tasks     map[string]string // task id → sandbox id
	secrets   map[string]map[string]string
	volumes   map[string]*volume // by id
	memSnaps  map[string]*memSnap
	fsSnapIDs map[string]string // TaskSnapshotFilesystem snapshot_id → image id
	memKeys   map[string]string // TaskSnapshotMemory idempotency_key → snapshot id
	execs     map[string]*proc  // task id + "\x00" + exec id → command (exec.go)
	execOrder []*proc           // every command, oldest first
	// timeoutWait, when a test sets it, is how a command started afterwards
	// waits out its timeout_secs (default: a real timer): it gets the
	// timeout and a channel closed once the command has ended, and the
	// command is killed when it returns true. A test of the timeout
	// records the wait and ends it itself instead of timing it.
	timeoutWait func(timeout time.Duration, ended <-chan struct{}) bool
}

type throttle struct {
	times int
	after time.Duration
}

type answer struct {
	resp any
	err  error
}

func newWorkspace(s *Server, t testing.TB) *Workspace {
	return &Workspace{
		s:           s,
		t:           t,
		tokenID:     "ak-" + s.randomID(22),
		tokenSecret: "as-" + s.randomID(22),
		now:         time.Now().UTC().Truncate(time.Second),
		calls:       map[string]int{},
		throttles:   map[string]*throttle{},
		drops:       map[string]int{},
		fails:       map[string]*codeFault{},
		cuts:        map[string]int{},
		holds:       map[string]*holdFault{},
		sequences:   map[string][]Step{},
		faulted:     fakeapi.RetryMemo{},
		answers:     map[string]answer{},
		envID:       "en-" + s.randomID(22),
		apps:        map[string]*app{},
		images:      map[string]*image{},
		imageKeys:   map[string]string{},
		sandboxes:   map[string]*sandbox{},
		tasks:       map[string]string{},
		secrets:     map[string]map[string]string{},
		volumes:     map[string]*volume{},
		memSnaps:    map[string]*memSnap{},
		fsSnapIDs:   map[string]string{},
		memKeys:     map[string]string{},
		execs:       map[string]*proc{},
	}
}

// TokenID is the workspace's x-modal-token-id.
func (w *Workspace) TokenID() string { return w.tokenID }

// TokenSecret is the workspace's x-modal-token-secret.
func (w *Workspace) TokenSecret() string { return w.tokenSecret }

// Now is the workspace's clock.
func (w *Workspace) Now() time.Time {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.now
}

// Advance moves the workspace's clock by d and lets everything due happen:
// sandboxes past their timeout or idle timeout finish, filesystem-snapshot
// images past their ttl and memory snapshots 7 days old disappear. The only
// activity inside a sandbox the fake models is an exec: idle time counts
// from the sandbox's start or its last command's end, and not while a
// command runs.
func (w *Workspace) Advance(d time.Duration) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.now = w.now.Add(d)
	w.expire()
}

// Throttle makes the next times calls of method (short name, e.g.
// "SandboxCreateV2") answer RESOURCE_EXHAUSTED with an RPCRetryPolicy
// detail asking for retryAfter, without acting.
func (w *Workspace) Throttle(method string, times int, retryAfter time.Duration) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.throttles[method] = &throttle{times: times, after: retryAfter}
}

// DropAnswer makes the next times calls of method act and then answer
// UNAVAILABLE, as if the answer were lost on the way back.
func (w *Workspace) DropAnswer(method string, times int) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.drops[method] = times
}

// Calls counts the calls of method received, retries included.
func (w *Workspace) Calls(method string) int {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.calls[method]
}

// Violations are the protocol violations seen so far, and the
// unimplemented RPCs called.
func (w *Workspace) Violations() []string {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	out := append([]string(nil), w.violations...)
	for _, u := range w.unimplemented {
		out = append(out, "unimplemented RPC "+u)
	}
	return out
}

// Methods below run with w.s.mu unlocked unless they say otherwise.

func (w *Workspace) violation(format string, args ...any) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.violations = append(w.violations, fmt.Sprintf(format, args...))
}

func (w *Workspace) recordUnimplemented(method string) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.unimplemented = append(w.unimplemented, method)
}

func (w *Workspace) replay(method, key string) (answer, bool) {
	if key == "" {
		return answer{}, false
	}
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	a, ok := w.answers[method+"\x00"+key]
	return a, ok
}

func (w *Workspace) remember(method, key string, a answer) {
	if key == "" {
		return
	}
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.answers[method+"\x00"+key] = a
}

func (w *Workspace) takeDrop(method string) bool {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	if w.drops[method] <= 0 {
		return false
	}
	w.drops[method]--
	return true
}

// expire applies the clock; w.s.mu held.
func (w *Workspace) expire() {
	for _, sb := range w.sandboxes {
		if sb.finished {
			continue
		}
		switch {
		case !w.now.Before(sb.startedAt.Add(time.Duration(sb.timeoutSecs) * time.Second)):
			w.finish(sb, pb.GenericResult_GENERIC_STATUS_TIMEOUT, "Sandbox timed out")
		case sb.idleTimeoutSecs > 0 && sb.runningExecs == 0 && !w.now.Before(sb.idleSince().Add(time.Duration(sb.idleTimeoutSecs)*time.Second)):
			w.finish(sb, pb.GenericResult_GENERIC_STATUS_IDLE_TIMEOUT, "Sandbox idle timeout")
		}
	}
	for id, im := range w.images {
		if !im.expiresAt.IsZero() && !w.now.Before(im.expiresAt) {
			w.dropImage(id)
		}
	}
	for id, sn := range w.memSnaps {
		if !w.now.Before(sn.createdAt.Add(memorySnapshotRetention)) {
			delete(w.memSnaps, id)
		}
	}
}

// memorySnapshotRetention is Modal's documented lifetime of a memory
// snapshot: 7 days after creation, not extended by use.
const memorySnapshotRetention = 7 * 24 * time.Hour

// sortedKeys is for deterministic output.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

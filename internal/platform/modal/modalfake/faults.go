package modalfake

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
)

// Faults. Every fault is per workspace and per method (its short name, e.g.
// "SandboxCreateV2" or the router's "TaskSnapshotFilesystem"), and counts
// down the calls it answers. There are two ways to set them:
//
//   - the setters Throttle, Fail, DropRequest, Hold and DropAnswer, each
//     set again (not added to) by a second call, times 0 clearing it; a
//     call takes at most one of them, in that order, DropAnswer being
//     decided after the handler ran;
//   - Sequence, a queue of Steps, one per call, taken before the setters:
//     a call that takes a step takes no setter's fault.
//
// Every fault but DropAnswer and a Hold that outlives its delay answers
// without acting, so the call leaves no answer under its x-idempotency-key
// and a retry acts afresh.
//
// What the SDK (v0.11.1) does with each: it retries INTERNAL, UNAVAILABLE,
// UNKNOWN, CANCELLED and DEADLINE_EXCEEDED on control-plane calls 3 times
// (100 ms, doubling, at most 1 s apart) with the same x-idempotency-key;
// RESOURCE_EXHAUSTED with an RPCRetryPolicy detail without limit after the
// delay asked (capped by MODAL_MAX_THROTTLE_WAIT and the call's deadline);
// the task command router's calls the same five codes 10 times (10 ms,
// doubling), except that snapshots give DEADLINE_EXCEEDED and CANCELLED
// back at once, and it never retries RESOURCE_EXHAUSTED. A retry, and any
// wait, ends with the caller's context.

// Step is what happens to one call of a Sequence. The zero Step lets the
// call through; otherwise exactly one of its fates is set.
type Step struct {
	// Code answers the call with this code without acting (see Fail). With
	// RESOURCE_EXHAUSTED the answer carries an RPCRetryPolicy detail
	// asking for RetryAfter.
	Code       codes.Code
	RetryAfter time.Duration
	// DropRequest cuts the call's connection before the handler runs
	// (see Workspace.DropRequest).
	DropRequest bool
	// DropAnswer lets the handler act, then answers UNAVAILABLE.
	DropAnswer bool
	// Hold keeps the call in front of the handler until its context ends,
	// or Hold passes (see Workspace.Hold).
	Hold time.Duration
	// HoldAnswer lets the handler act, then holds the answer until
	// HoldAnswer passes or the call's context ends (the client then has
	// its context's error, the change made): the window an interrupted
	// client lands in (unary calls; a stream is let through).
	HoldAnswer time.Duration
	// SparesRetry lets a unary call through when the call with its
	// idempotency key (the SDK's retries keep it) drew a fault last time;
	// the step waits for the next call. A retry then never draws faults
	// twice in a row, however concurrent calls interleave on the sequence.
	SparesRetry bool
}

// fates counts the fates s sets.
func (s Step) fates() int {
	n := 0
	for _, set := range []bool{s.Code != codes.OK, s.DropRequest, s.DropAnswer, s.Hold > 0, s.HoldAnswer > 0} {
		if set {
			n++
		}
	}
	return n
}

// Sequence queues steps for the next calls of method, one per call, after
// the steps already queued for it.
func (w *Workspace) Sequence(method string, steps ...Step) {
	for _, st := range steps {
		if st.fates() > 1 {
			panic(fmt.Sprintf("modalfake: a Step with more than one fate: %+v", st))
		}
	}
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.sequences[method] = append(w.sequences[method], steps...)
}

// codeFault answers a code without acting.
type codeFault struct {
	code  codes.Code
	times int
}

// holdFault holds calls before the handler.
type holdFault struct {
	times int
	max   time.Duration
}

// Fail makes the next times calls of method answer code without acting: a
// request that failed before any handler took it (UNAVAILABLE is what
// gRPC servers and proxies answer when they cannot take a call; INTERNAL a
// server error). The client cannot tell that nothing was done; the SDK
// retries both. code must be an error code.
func (w *Workspace) Fail(method string, code codes.Code, times int) {
	if code == codes.OK {
		panic("modalfake: Fail with codes.OK")
	}
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.fails[method] = &codeFault{code: code, times: times}
}

// DropRequest makes the next times calls of method lose their connection
// before the handler runs: the fake closes the TCP connection the call came
// on, so the client sees what grpc-go reports for a cut connection
// (UNAVAILABLE), and every other call in flight on that connection is cut
// with it, as on a real network. Nothing is done.
func (w *Workspace) DropRequest(method string, times int) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.cuts[method] = times
}

// Hold makes the next times calls of method wait in front of the handler
// until the call's context ends (its deadline passes, or the client gives
// up) or maxDelay passes. A call whose context ended first is answered
// with its context's error (DEADLINE_EXCEEDED or CANCELLED) and nothing is
// done: the request never reached a handler. A call still waited for after
// maxDelay goes on to the handler and acts.
func (w *Workspace) Hold(method string, times int, maxDelay time.Duration) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.holds[method] = &holdFault{times: times, max: maxDelay}
}

// afterActing is what becomes of a unary call's answer once the handler
// acted: dropped, or held for a while.
type afterActing struct {
	drop bool
	hold time.Duration
}

// begin counts a call and takes the fault due for it: its next Sequence
// step, else the first setter's fault pending. An error answers the call
// without acting; after says what becomes of the answer once the handler
// acted (unary calls only).
func (w *Workspace) begin(ctx context.Context, method, key string, unary bool) (after afterActing, err error) {
	w.s.mu.Lock()
	w.calls[method]++
	st, stepped := w.nextStep(method, key)
	if !stepped {
		st = w.pendingFault(method)
	}
	w.s.mu.Unlock()
	switch {
	case st.DropRequest:
		return afterActing{}, w.s.cut(ctx, method)
	case st.Code == codes.ResourceExhausted:
		return afterActing{}, throttled(method, st.RetryAfter)
	case st.Code != codes.OK:
		return afterActing{}, status.Errorf(st.Code, "modalfake: %s failed with %s before acting", method, st.Code)
	case st.Hold > 0:
		if err := waitOrEnd(ctx, st.Hold); err != nil {
			return afterActing{}, err
		}
	}
	switch {
	case !unary:
		return afterActing{}, nil
	case stepped:
		return afterActing{drop: st.DropAnswer, hold: st.HoldAnswer}, nil
	}
	return afterActing{drop: w.takeDrop(method)}, nil
}

// nextStep pops method's next Sequence step for the call with idempotency
// key ("" for a stream); w.s.mu held.
func (w *Workspace) nextStep(method, key string) (Step, bool) {
	q := w.sequences[method]
	if len(q) == 0 {
		w.faulted.Record(key, false)
		return Step{}, false
	}
	st := q[0]
	if w.faulted.Spares(key, st.SparesRetry, st.fates() > 0) {
		return Step{}, false
	}
	w.sequences[method] = q[1:]
	w.faulted.Record(key, st.fates() > 0)
	return st, true
}

// pendingFault takes the first setter's fault pending for method, as a
// Step (DropAnswer aside, decided after acting); w.s.mu held.
func (w *Workspace) pendingFault(method string) Step {
	if w.cuts[method] > 0 {
		w.cuts[method]--
		return Step{DropRequest: true}
	}
	if f := w.fails[method]; f != nil && f.times > 0 {
		f.times--
		return Step{Code: f.code}
	}
	if th := w.throttles[method]; th != nil && th.times > 0 {
		th.times--
		return Step{Code: codes.ResourceExhausted, RetryAfter: th.after}
	}
	if h := w.holds[method]; h != nil && h.times > 0 {
		h.times--
		return Step{Hold: h.max}
	}
	return Step{}
}

// throttled is Modal's throttling answer: RESOURCE_EXHAUSTED with an
// RPCRetryPolicy detail asking for the wait.
func throttled(method string, after time.Duration) error {
	st := status.New(codes.ResourceExhausted, fmt.Sprintf("rate limit exceeded for %s", method))
	withDetail, err := st.WithDetails(pb.RPCRetryPolicy_builder{RetryAfterSecs: float32(after.Seconds())}.Build())
	if err != nil {
		return st.Err()
	}
	return withDetail.Err()
}

// waitOrEnd waits d, or until ctx ends: then the call's context error as
// a status, which is what grpc-go answers a call whose context ended.
func waitOrEnd(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return status.FromContextError(ctx.Err()).Err()
	}
}

// cut closes the connection the call of ctx came on. The answer returned
// never reaches the client (the connection is gone); it says what the
// client sees instead.
func (s *Server) cut(ctx context.Context, method string) error {
	p, ok := peer.FromContext(ctx)
	if ok {
		s.connMu.Lock()
		c := s.conns[connKey(p.LocalAddr, p.Addr)]
		s.connMu.Unlock()
		if c != nil {
			_ = c.Close()
		}
	}
	return status.Errorf(codes.Unavailable, "modalfake: connection of %s cut before the server acted", method)
}

// connKey tells a connection by both its ends: the two services listen on
// two ports of one address.
func connKey(local, remote net.Addr) string {
	l := ""
	if local != nil {
		l = local.String()
	}
	r := ""
	if remote != nil {
		r = remote.String()
	}
	return l + "|" + r
}

// trackingListener records the connections it accepts, so a fault can cut
// the one a call came on.
type trackingListener struct {
	net.Listener
	s *Server
}

func (l *trackingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &trackedConn{Conn: c, s: l.s, key: connKey(c.LocalAddr(), c.RemoteAddr())}
	l.s.connMu.Lock()
	l.s.conns[tc.key] = tc
	l.s.connMu.Unlock()
	return tc, nil
}

// trackedConn forgets itself when closed.
type trackedConn struct {
	net.Conn
	s    *Server
	key  string
	once sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.s.connMu.Lock()
		if c.s.conns[c.key] == c {
			delete(c.s.conns, c.key)
		}
		c.s.connMu.Unlock()
	})
	return c.Conn.Close()
}

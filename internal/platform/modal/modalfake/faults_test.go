package modalfake

import (
	"context"
	"strings"
	"testing"
	"time"

	modal "github.com/modal-labs/modal-client/go"
	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

// The SDK sleeps for the retry policy's delay and retries a throttled call
// until it goes through.
func TestThrottleIsRetried(t *testing.T) {
	f := newFixture(t, false)
	f.w.Throttle("SandboxCreateV2", 2, 10*time.Millisecond)
	f.create(t, nil)
	if n := f.w.Calls("SandboxCreateV2"); n != 3 {
		t.Errorf("SandboxCreateV2 calls = %d, want 3", n)
	}
	if n := len(f.w.Sandboxes()); n != 1 {
		t.Errorf("%d sandboxes, want 1", n)
	}
}

// A dropped answer is retried with the same idempotency key and answered
// again without acting twice.
func TestDroppedAnswerNotDuplicated(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			f := newFixture(t, b.v1)
			method := map[bool]string{false: "SandboxCreateV2", true: "SandboxCreate"}[b.v1]
			f.w.DropAnswer(method, 1)
			sb := f.create(t, nil)
			if n := f.w.Calls(method); n != 2 {
				t.Errorf("%s calls = %d, want 2", method, n)
			}
			all := f.w.Sandboxes()
			if len(all) != 1 || all[0].ID != sb.SandboxID {
				t.Errorf("sandboxes %+v, want only %s", all, sb.SandboxID)
			}
		})
	}
}

// Calls the fake does not implement answer UNIMPLEMENTED and are recorded
// for the workspace's cleanup to report.
func TestUnimplementedIsRecorded(t *testing.T) {
	f := newFixture(t, false)
	_, err := f.c.Secrets.FromName(f.ctx, "named", nil)
	if status.Code(err) != codes.Unimplemented && !strings.Contains(err.Error(), "Unimplemented") {
		t.Fatalf("named secret lookup: %v", err)
	}
	v := f.w.Violations()
	if len(v) != 1 || !strings.Contains(v[0], "SecretGetOrCreate") {
		t.Fatalf("violations %v", v)
	}
	// The cleanup would fail this test; clear the record so it does not.
	f.w.s.mu.Lock()
	f.w.unimplemented = nil
	f.w.s.mu.Unlock()
}

// rawConn dials the control plane without the SDK, to send what the SDK never would.
func rawConn(t *testing.T, addr string) *grpc.ClientConn {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// Control plane calls need known credentials and an auth token; the
// router needs a JWT minted for the task it names.
func TestAuth(t *testing.T) {
	w := srv.NewWorkspace(t)
	cp := pb.NewModalClientClient(rawConn(t, strings.TrimPrefix(srv.URL(), "http://")))
	ctx := ctxOf(t)
	creds := func(id, secret string) context.Context {
		return metadata.AppendToOutgoingContext(ctx, "x-modal-token-id", id, "x-modal-token-secret", secret,
			"x-modal-client-type", "9", "x-modal-client-version", "1.0.0", "x-idempotency-key", "k")
	}
	if _, err := cp.AuthTokenGet(creds(w.TokenID(), "wrong"), &pb.AuthTokenGetRequest{}); status.Code(err) != codes.Unauthenticated {
		t.Errorf("wrong secret: %v", err)
	}
	tok, err := cp.AuthTokenGet(creds(w.TokenID(), w.TokenSecret()), &pb.AuthTokenGetRequest{})
	if err != nil || strings.Count(tok.GetToken(), ".") != 2 {
		t.Fatalf("AuthTokenGet: %v, %v", tok, err)
	}
	if _, err := cp.AppGetOrCreate(creds(w.TokenID(), w.TokenSecret()), pb.AppGetOrCreateRequest_builder{AppName: "a"}.Build()); status.Code(err) != codes.Unauthenticated {
		t.Errorf("without x-modal-auth-token: %v", err)
	}
	with := metadata.AppendToOutgoingContext(creds(w.TokenID(), w.TokenSecret()), "x-modal-auth-token", tok.GetToken())
	if _, err := cp.AppGetOrCreate(with, pb.AppGetOrCreateRequest_builder{AppName: "a"}.Build()); status.Code(err) != codes.NotFound {
		t.Errorf("with the auth token: %v, want NotFound", err)
	}
	if v := w.Violations(); len(v) != 1 || !strings.Contains(v[0], "x-modal-auth-token") {
		t.Errorf("violations %v", v)
	}
	w.s.mu.Lock()
	w.violations = nil
	w.s.mu.Unlock()

	routerAddr := strings.TrimPrefix(srv.routerURL(), "https://")
	rt := pb.NewTaskCommandRouterClient(rawConn(t, routerAddr))
	req := pb.TaskSnapshotMemoryRequest_builder{TaskId: "ta-x", IdempotencyKey: "k"}.Build()
	if _, err := rt.TaskSnapshotMemory(ctx, req); status.Code(err) != codes.Unauthenticated {
		t.Errorf("router without a JWT: %v", err)
	}
	bad := metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+mintJWT("ta-x", time.Now().Add(time.Hour)))
	if _, err := rt.TaskSnapshotMemory(bad, req); status.Code(err) != codes.Unauthenticated {
		t.Errorf("router with a JWT the fake never minted: %v", err)
	}
}

// rawClient is a control-plane client of w without the SDK (so without its
// retries), and a context carrying w's credentials and auth token; each
// call sends the idempotency key it is given.
func rawClient(t *testing.T, w *Workspace) (pb.ModalClientClient, func(ctx context.Context, key string) context.Context) {
	t.Helper()
	cp := pb.NewModalClientClient(rawConn(t, strings.TrimPrefix(srv.URL(), "http://")))
	creds := func(ctx context.Context, key string) context.Context {
		return metadata.AppendToOutgoingContext(ctx, "x-modal-token-id", w.TokenID(), "x-modal-token-secret", w.TokenSecret(),
			"x-modal-client-type", "9", "x-modal-client-version", "1.0.0", "x-idempotency-key", key)
	}
	tok, err := cp.AuthTokenGet(creds(ctxOf(t), "auth"), &pb.AuthTokenGetRequest{})
	if err != nil {
		t.Fatalf("AuthTokenGet: %v", err)
	}
	return cp, func(ctx context.Context, key string) context.Context {
		return metadata.AppendToOutgoingContext(creds(ctx, key), "x-modal-auth-token", tok.GetToken())
	}
}

// createData creates the volume "data" if missing.
func createData() *pb.VolumeGetOrCreateRequest {
	return pb.VolumeGetOrCreateRequest_builder{
		DeploymentName:     "data",
		ObjectCreationType: pb.ObjectCreationType_OBJECT_CREATION_TYPE_CREATE_IF_MISSING,
	}.Build()
}

// Every fault before acting answers its code and does nothing; the call
// after it (a new idempotency key, or the same one, as the SDK retries)
// acts. A hold that outlives its delay acts.
func TestFaultsBeforeActing(t *testing.T) {
	const method = "VolumeGetOrCreate"
	cases := []struct {
		name   string
		inject func(w *Workspace)
		// deadline gives the call a deadline that passes once the fake
		// holds it.
		deadline bool
		want     codes.Code
		// transport says the client must hear the code from its own
		// transport (the connection was cut), not from the fake.
		transport bool
		acted     bool
	}{
		{name: "INTERNAL", inject: func(w *Workspace) { w.Fail(method, codes.Internal, 1) }, want: codes.Internal},
		{name: "UNAVAILABLE", inject: func(w *Workspace) { w.Fail(method, codes.Unavailable, 1) }, want: codes.Unavailable},
		{name: "throttle", inject: func(w *Workspace) { w.Throttle(method, 1, time.Second) }, want: codes.ResourceExhausted},
		{name: "dropped request", inject: func(w *Workspace) { w.DropRequest(method, 1) }, want: codes.Unavailable, transport: true},
		// The hold outlasts anything the test waits for: only the
		// deadline ends it.
		{name: "held past the deadline", inject: func(w *Workspace) { w.Hold(method, 1, clock.Patience) },
			deadline: true, want: codes.DeadlineExceeded},
		{name: "held less than the deadline", inject: func(w *Workspace) { w.Hold(method, 1, 50*time.Millisecond) },
			want: codes.OK, acted: true},
		{name: "none", inject: func(*Workspace) {}, want: codes.OK, acted: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := srv.NewWorkspace(t)
			cp, with := rawClient(t, w)
			tc.inject(w)
			ctx := ctxOf(t)
			if tc.deadline {
				// Passed once the fake has the call (it counts a call
				// before its hold), not at an instant a slow machine could
				// reach before the request was sent.
				d := clock.NewDeadline(ctx)
				d.PassWhen(func() bool { return w.Calls(method) == 1 })
				defer d.Pass()
				ctx = d
			}
			_, err := cp.VolumeGetOrCreate(with(ctx, "k1"), createData())
			if got := status.Code(err); got != tc.want {
				t.Fatalf("first call: %v, want %s", err, tc.want)
			}
			if tc.want == codes.ResourceExhausted {
				if d := retryPolicy(err); d != time.Second {
					t.Errorf("throttle asks for %v, want 1s", d)
				}
			}
			if tc.transport && strings.Contains(err.Error(), "modalfake") {
				t.Errorf("first call: %v; want the transport's error (connection cut), not an answer of the fake", err)
			}
			if _, ok := w.Volume("data"); ok != tc.acted {
				t.Fatalf("volume made: %v, want %v", ok, tc.acted)
			}
			// The retry, with the same key, acts now (or is answered again).
			if _, err := cp.VolumeGetOrCreate(with(ctxOf(t), "k1"), createData()); err != nil {
				t.Fatalf("retry: %v", err)
			}
			if n := len(w.Volumes()); n != 1 {
				t.Errorf("%d volumes after the retry, want 1", n)
			}
			if n := w.Calls(method); n != 2 {
				t.Errorf("%s calls = %d, want 2", method, n)
			}
		})
	}
}

// retryPolicy is the wait an RPCRetryPolicy detail of err asks for.
func retryPolicy(err error) time.Duration {
	for _, d := range status.Convert(err).Details() {
		if p, ok := d.(*pb.RPCRetryPolicy); ok {
			return time.Duration(float64(p.GetRetryAfterSecs()) * float64(time.Second))
		}
	}
	return 0
}

// A dropped request cuts its connection, and with it every call in flight
// on it, as a real network does.
func TestDropRequestCutsTheConnection(t *testing.T) {
	w := srv.NewWorkspace(t)
	cp, with := rawClient(t, w)
	// The hold outlasts anything the test waits for: only the cut ends it.
	w.Hold("VolumeGetOrCreate", 1, clock.Patience)
	held := make(chan error, 1)
	go func() {
		_, err := cp.VolumeGetOrCreate(with(ctxOf(t), "held"), createData())
		held <- err
	}()
	if !clock.Eventually(func() bool { return w.Calls("VolumeGetOrCreate") == 1 }) {
		t.Fatal("the fake never had the call to hold")
	}
	w.DropRequest("VolumeDelete", 1)
	_, err := cp.VolumeDelete(with(ctxOf(t), "cut"), pb.VolumeDeleteRequest_builder{VolumeId: "vo-x"}.Build())
	if status.Code(err) != codes.Unavailable {
		t.Fatalf("dropped call: %v, want Unavailable", err)
	}
	select {
	case err := <-held:
		if status.Code(err) != codes.Unavailable {
			t.Errorf("call held on the cut connection: %v, want Unavailable", err)
		}
	case <-time.After(clock.Patience): // the client hears of the cut by itself, in real time
		t.Fatal("the call held on the cut connection was not cut")
	}
	if _, ok := w.Volume("data"); ok {
		t.Error("the cut held call acted")
	}
	// The client reconnects.
	if _, err := cp.VolumeGetOrCreate(with(ctxOf(t), "after"), createData()); err != nil {
		t.Fatalf("call after the cut: %v", err)
	}
}

// snapshotsOf counts the filesystem-snapshot images of a sandbox.
func snapshotsOf(w *Workspace, sandboxID string) int {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	n := 0
	for _, im := range w.images {
		if im.fromSandbox == sandboxID {
			n++
		}
	}
	return n
}

// The SDK retries what the faults answer, on the control plane and on the
// task command router alike, and never acts twice; a call held past its
// deadline fails and nothing is done.
func TestSDKAgainstFaults(t *testing.T) {
	cases := []struct {
		name   string
		method string
		inject func(w *Workspace, method string)
		// deadline gives the call a deadline that passes once the fake
		// holds it; false: the fixture's.
		deadline  bool
		wantCalls int
		wantErr   bool
	}{
		{name: "create INTERNAL twice", method: "SandboxCreateV2", wantCalls: 3,
			inject: func(w *Workspace, m string) { w.Fail(m, codes.Internal, 2) }},
		{name: "create UNAVAILABLE", method: "SandboxCreateV2", wantCalls: 2,
			inject: func(w *Workspace, m string) { w.Fail(m, codes.Unavailable, 1) }},
		{name: "create dropped request", method: "SandboxCreateV2", wantCalls: 2,
			inject: func(w *Workspace, m string) { w.DropRequest(m, 1) }},
		{name: "create held past the deadline", method: "SandboxCreateV2", wantCalls: 1, wantErr: true, deadline: true,
			inject: func(w *Workspace, m string) { w.Hold(m, 1, clock.Patience) }},
		{name: "snapshot INTERNAL twice", method: "TaskSnapshotFilesystem", wantCalls: 3,
			inject: func(w *Workspace, m string) { w.Fail(m, codes.Internal, 2) }},
		{name: "snapshot UNAVAILABLE", method: "TaskSnapshotFilesystem", wantCalls: 2,
			inject: func(w *Workspace, m string) { w.Fail(m, codes.Unavailable, 1) }},
		{name: "snapshot dropped request", method: "TaskSnapshotFilesystem", wantCalls: 2,
			inject: func(w *Workspace, m string) { w.DropRequest(m, 1) }},
		{name: "snapshot dropped answer", method: "TaskSnapshotFilesystem", wantCalls: 2,
			inject: func(w *Workspace, m string) { w.DropAnswer(m, 1) }},
		{name: "snapshot held past the deadline", method: "TaskSnapshotFilesystem", wantCalls: 1, wantErr: true, deadline: true,
			inject: func(w *Workspace, m string) { w.Hold(m, 1, clock.Patience) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, false)
			var sb *modal.Sandbox
			if tc.method == "TaskSnapshotFilesystem" {
				sb = f.create(t, nil)
				// Read the box once so that it is scheduled (async.go): the
				// SDK's wait for the task (polled every 500 ms) is not what
				// this test is about.
				if _, err := sb.Poll(f.ctx, nil); err != nil {
					t.Fatal(err)
				}
			}
			tc.inject(f.w, tc.method)
			ctx := f.ctx
			if tc.deadline {
				// Passed once the fake holds the call (the holds are far
				// longer than any test), not at an instant a slow machine
				// could reach before the SDK sent it.
				d := clock.NewDeadline(ctx)
				d.PassWhen(func() bool { return f.w.Calls(tc.method) == 1 })
				defer d.Pass()
				ctx = d
			}
			var err error
			made := func() int { return len(f.w.Sandboxes()) }
			if sb != nil {
				_, err = sb.SnapshotFilesystem(ctx, &modal.SandboxSnapshotFilesystemParams{TTL: time.Hour})
				made = func() int { return snapshotsOf(f.w, sb.SandboxID) }
			} else {
				_, err = f.c.Sandboxes.Create(ctx, f.app, f.image, nil)
			}
			if (err != nil) != tc.wantErr {
				t.Fatalf("call: %v, want an error: %v", err, tc.wantErr)
			}
			if tc.wantErr && status.Code(err) != codes.DeadlineExceeded {
				t.Errorf("held call: %v, want DeadlineExceeded", err)
			}
			want := 1
			if tc.wantErr {
				want = 0
			}
			if n := made(); n != want {
				t.Errorf("%d objects made, want %d", n, want)
			}
			if n := f.w.Calls(tc.method); n != tc.wantCalls {
				t.Errorf("%s calls = %d, want %d", tc.method, n, tc.wantCalls)
			}
		})
	}
}

// A Sequence answers one call per step, in order, before the setters'
// faults; a DropAnswer step acts and loses the answer, which the retry
// with the same idempotency key gets again.
func TestSequence(t *testing.T) {
	const method = "VolumeGetOrCreate"
	w := srv.NewWorkspace(t)
	cp, with := rawClient(t, w)
	w.Fail(method, codes.Unknown, 1)
	w.Sequence(method,
		Step{Code: codes.Internal},
		Step{},
		Step{Code: codes.ResourceExhausted, RetryAfter: 2 * time.Second},
		Step{DropAnswer: true},
		Step{Code: codes.Unavailable},
	)
	steps := []struct {
		key  string
		want codes.Code
		// volumes is how many volumes the fake holds after the call.
		volumes int
	}{
		{"a", codes.Internal, 0},
		{"a", codes.OK, 1},
		{"b", codes.ResourceExhausted, 1},
		{"c", codes.Unavailable, 1}, // acted (adopted "data"), answer lost
		{"c", codes.Unavailable, 1}, // the sequence's last step
		{"c", codes.Unknown, 1},     // the setter's fault, after the sequence
		{"c", codes.OK, 1},          // the first answer to "c", replayed
	}
	for i, st := range steps {
		_, err := cp.VolumeGetOrCreate(with(ctxOf(t), st.key), createData())
		if got := status.Code(err); got != st.want {
			t.Fatalf("call %d: %v, want %s", i+1, err, st.want)
		}
		if st.want == codes.ResourceExhausted && retryPolicy(err) != 2*time.Second {
			t.Errorf("call %d: retry policy %v, want 2s", i+1, retryPolicy(err))
		}
		if n := len(w.Volumes()); n != st.volumes {
			t.Fatalf("after call %d: %d volumes, want %d", i+1, n, st.volumes)
		}
	}
	if n := w.Calls(method); n != len(steps) {
		t.Errorf("calls = %d, want %d", n, len(steps))
	}
}

// A step that spares retries lets the retry of a call that drew a fault
// (its idempotency key) through and waits for the next call.
func TestSequenceSparesRetry(t *testing.T) {
	const method = "VolumeGetOrCreate"
	w := srv.NewWorkspace(t)
	cp, with := rawClient(t, w)
	w.Sequence(method, Step{Code: codes.Unavailable, SparesRetry: true}, Step{Code: codes.Unavailable, SparesRetry: true})
	for i, st := range []struct {
		key  string
		want codes.Code
	}{
		{"a", codes.Unavailable},
		{"a", codes.OK}, // a retry: spared, the step waits
		{"b", codes.Unavailable},
		{"c", codes.OK}, // the sequence is used up
	} {
		_, err := cp.VolumeGetOrCreate(with(ctxOf(t), st.key), createData())
		if got := status.Code(err); got != st.want {
			t.Fatalf("call %d (key %q): %v, want %s", i+1, st.key, err, st.want)
		}
	}
}

// A Step has one fate at most.
func TestSequenceRefusesTwoFates(t *testing.T) {
	w := srv.NewWorkspace(t)
	defer func() {
		if recover() == nil {
			t.Error("a Step with two fates was queued")
		}
	}()
	w.Sequence("VolumeDelete", Step{Code: codes.Internal, DropAnswer: true})
}

// A held answer comes after the handler acted: a caller that gives up
// meanwhile has its context's error, and the volume is made.
func TestHoldAnswerActsFirst(t *testing.T) {
	const method = "VolumeGetOrCreate"
	w := srv.NewWorkspace(t)
	cp, with := rawClient(t, w)
	w.Sequence(method, Step{HoldAnswer: clock.Patience})
	// The caller gives up once the volume is made while its answer is
	// still held (a call answered would not end with the deadline).
	ctx := clock.NewDeadline(ctxOf(t))
	ctx.PassWhen(func() bool { return len(w.Volumes()) == 1 })
	defer ctx.Pass()
	_, err := cp.VolumeGetOrCreate(with(ctx, "held"), createData())
	if got := status.Code(err); got != codes.DeadlineExceeded {
		t.Fatalf("the held call: %v, want DEADLINE_EXCEEDED", err)
	}
	if n := len(w.Volumes()); n != 1 {
		t.Fatalf("%d volumes after the held call, want the 1 it made", n)
	}
}

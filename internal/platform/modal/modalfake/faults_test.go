package modalfake

import (
	"context"
	"strings"
	"testing"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
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

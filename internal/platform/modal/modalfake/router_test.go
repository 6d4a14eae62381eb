package modalfake

import (
	"context"
	"strings"
	"testing"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// routerFor is a raw router client carrying a JWT for the sandbox's task.
func routerFor(t *testing.T, f *fixture, sandboxID string) (pb.TaskCommandRouterClient, context.Context, string) {
	t.Helper()
	// A new sandbox has its task once it has been read pending (async.go).
	h, err := f.c.Sandboxes.FromID(f.ctx, sandboxID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Poll(f.ctx, nil); err != nil {
		t.Fatal(err)
	}
	f.w.s.mu.Lock()
	sb := f.w.sandboxes[sandboxID]
	acc := f.w.s.routerAccess(f.w, sb.taskID)
	f.w.s.mu.Unlock()
	rt := pb.NewTaskCommandRouterClient(rawConn(t, strings.TrimPrefix(acc.GetUrl(), "https://")))
	return rt, metadata.AppendToOutgoingContext(f.ctx, "authorization", "Bearer "+acc.GetJwt()), sb.taskID
}

func TestRouterSnapshotRules(t *testing.T) {
	f := newFixture(t, false)
	sb := f.create(t, nil)
	rt, ctx, task := routerFor(t, f, sb.SandboxID)
	fs := func(id string, ttl *int64) (*pb.TaskSnapshotFilesystemResponse, error) {
		return rt.TaskSnapshotFilesystem(ctx, pb.TaskSnapshotFilesystemRequest_builder{TaskId: task, SnapshotId: id, TtlSeconds: ttl}.Build())
	}
	for _, tc := range []struct {
		name string
		ttl  *int64
		want codes.Code
	}{
		{"ttl unset", nil, codes.InvalidArgument},
		{"ttl 0", proto.Int64(0), codes.InvalidArgument},
		{"ttl -2", proto.Int64(-2), codes.InvalidArgument},
		{"ttl -1", proto.Int64(-1), codes.OK},
		{"ttl 60", proto.Int64(60), codes.OK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := fs("snap-"+tc.name, tc.ttl); status.Code(err) != tc.want {
				t.Errorf("err = %v, want %s", err, tc.want)
			}
		})
	}
	a, err := fs("same", proto.Int64(60))
	if err != nil {
		t.Fatal(err)
	}
	b, err := fs("same", proto.Int64(60))
	if err != nil || b.GetImageId() != a.GetImageId() {
		t.Errorf("repeated snapshot_id: %v, %v; want image %s again", b, err, a.GetImageId())
	}

	// Memory: refused without enable_snapshot.
	if _, err := rt.TaskSnapshotMemory(ctx, pb.TaskSnapshotMemoryRequest_builder{TaskId: task, IdempotencyKey: "k"}.Build()); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("memory snapshot without enable_snapshot: %v", err)
	}
	// A JWT for one task does not reach another.
	other := f.create(t, nil)
	f.w.s.mu.Lock()
	otherTask := f.w.sandboxes[other.SandboxID].taskID
	f.w.s.mu.Unlock()
	if _, err := fs("x", proto.Int64(60)); err != nil {
		t.Fatal(err)
	}
	_, err = rt.TaskSnapshotFilesystem(ctx, pb.TaskSnapshotFilesystemRequest_builder{TaskId: otherTask, SnapshotId: "y", TtlSeconds: proto.Int64(60)}.Build())
	if status.Code(err) != codes.PermissionDenied {
		t.Errorf("foreign task: %v", err)
	}
	if v := f.w.Violations(); len(v) != 1 || !strings.Contains(v[0], "JWT for task") {
		t.Errorf("violations %v", v)
	}
	f.w.s.mu.Lock()
	f.w.violations = nil
	f.w.s.mu.Unlock()
}

func TestRouterMemorySnapshotIdempotent(t *testing.T) {
	f := newFixture(t, false)
	sb := f.create(t, &modalSnapshotParams)
	rt, ctx, task := routerFor(t, f, sb.SandboxID)
	req := pb.TaskSnapshotMemoryRequest_builder{TaskId: task, IdempotencyKey: "once"}.Build()
	a, err := rt.TaskSnapshotMemory(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := rt.TaskSnapshotMemory(ctx, req)
	if err != nil || b.GetSnapshotId() != a.GetSnapshotId() {
		t.Errorf("repeated key: %v, %v; want %s again", b, err, a.GetSnapshotId())
	}
}

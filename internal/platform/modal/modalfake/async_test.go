package modalfake

import (
	"context"
	"io"
	"testing"

	modal "github.com/modal-labs/modal-client/go"
	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// join reads one ImageJoinStreaming call to its end and gives the result
// it carried, nil when the stream ended without one.
func join(t *testing.T, cp pb.ModalClientClient, ctx context.Context, imageID string) *pb.GenericResult {
	t.Helper()
	stream, err := cp.ImageJoinStreaming(ctx, pb.ImageJoinStreamingRequest_builder{ImageId: imageID, Timeout: 55}.Build())
	if err != nil {
		t.Fatal(err)
	}
	var res *pb.GenericResult
	for {
		item, err := stream.Recv()
		if err == io.EOF {
			return res
		}
		if err != nil {
			t.Fatal(err)
		}
		if item.GetResult() != nil {
			res = item.GetResult()
		}
	}
}

// A build is finished only when joined: the create answers without a
// result, the first join ends without one and the image cannot start a box
// meanwhile; the next join finishes it.
func TestImageBuildFinishesOnSecondJoin(t *testing.T) {
	f := newFixture(t, false)
	cp, creds := rawClient(t, f.w)
	req := pb.ImageGetOrCreateRequest_builder{
		AppId:          f.app.AppID,
		Image:          pb.Image_builder{DockerfileCommands: []string{"FROM alpine:3.21", "RUN echo slow"}}.Build(),
		BuilderVersion: "2024.10",
	}.Build()
	got, err := cp.ImageGetOrCreate(creds(f.ctx, "build"), req)
	if err != nil || got.GetResult() != nil {
		t.Fatalf("ImageGetOrCreate = %v, %v; want an image id without a result", got, err)
	}
	id := got.GetImageId()
	if res := join(t, cp, creds(f.ctx, "j1"), id); res != nil {
		t.Errorf("first join's result %v, want none while the build runs", res)
	}
	if v, _ := f.w.Image(id); v.Status != imageBuilding {
		t.Errorf("after the first join: %s, want %s", v.Status, imageBuilding)
	}
	def := pb.Sandbox_builder{ImageId: id, TimeoutSecs: 300}.Build()
	if _, err := cp.SandboxCreateV2(creds(f.ctx, "early"), pb.SandboxCreateV2Request_builder{AppId: f.app.AppID, Definition: def}.Build()); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("create from an image still building: %v, want FailedPrecondition", err)
	}
	if res := join(t, cp, creds(f.ctx, "j2"), id); res.GetStatus() != pb.GenericResult_GENERIC_STATUS_SUCCESS {
		t.Errorf("second join's result %v, want success", res)
	}
	again, err := cp.ImageGetOrCreate(creds(f.ctx, "again"), req)
	if err != nil || again.GetImageId() != id || again.GetResult().GetStatus() != pb.GenericResult_GENERIC_STATUS_SUCCESS {
		t.Errorf("the same image again: %v, %v; want %s with its result", again, err, id)
	}
	// The SDK joins until it has a result: two joins for the new layer.
	before := f.w.Calls("ImageJoinStreaming")
	if _, err := f.c.Images.FromRegistry("alpine:3.21", nil).DockerfileCommands([]string{"RUN echo sdk"}, nil).Build(f.ctx, f.app, nil); err != nil {
		t.Fatal(err)
	}
	if n := f.w.Calls("ImageJoinStreaming") - before; n != 2 {
		t.Errorf("the SDK joined %d times, want 2", n)
	}
}

// A V2 create answers before its task is scheduled: no task id nor router
// access; the first read (SandboxGetTaskIdV2 or SandboxWaitV2) shows it
// pending, and after it the task is there.
func TestSandboxScheduledAfterARead(t *testing.T) {
	for _, tc := range []struct {
		name string
		read func(pb.ModalClientClient, context.Context, string) (pending bool, err error)
	}{
		{"GetTaskId", func(cp pb.ModalClientClient, ctx context.Context, id string) (bool, error) {
			r, err := cp.SandboxGetTaskIdV2(ctx, pb.SandboxGetTaskIdRequest_builder{SandboxId: id}.Build())
			return !r.HasTaskId() && r.GetTaskResult() == nil, err
		}},
		{"Wait", func(cp pb.ModalClientClient, ctx context.Context, id string) (bool, error) {
			r, err := cp.SandboxWaitV2(ctx, pb.SandboxWaitRequest_builder{SandboxId: id}.Build())
			return r.GetResult() == nil, err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, false)
			cp, creds := rawClient(t, f.w)
			def := pb.Sandbox_builder{ImageId: f.image.ImageID, TimeoutSecs: 300}.Build()
			made, err := cp.SandboxCreateV2(creds(f.ctx, "create"), pb.SandboxCreateV2Request_builder{AppId: f.app.AppID, Definition: def}.Build())
			if err != nil {
				t.Fatal(err)
			}
			if made.GetTaskId() != "" || made.GetCommandRouterAccess() != nil {
				t.Errorf("create answered task %q and router access %v before scheduling", made.GetTaskId(), made.GetCommandRouterAccess())
			}
			id := made.GetSandboxId()
			if _, err := cp.SandboxGetCommandRouterAccess(creds(f.ctx, "acc"), pb.SandboxGetCommandRouterAccessRequest_builder{SandboxId: &id}.Build()); status.Code(err) != codes.FailedPrecondition {
				t.Errorf("router access before scheduling: %v, want FailedPrecondition", err)
			}
			if pending, err := tc.read(cp, creds(f.ctx, "read1"), id); err != nil || !pending {
				t.Errorf("first read: pending %v, %v; want pending", pending, err)
			}
			r, err := cp.SandboxGetTaskIdV2(creds(f.ctx, "read2"), pb.SandboxGetTaskIdRequest_builder{SandboxId: id}.Build())
			if err != nil || r.GetTaskId() == "" {
				t.Errorf("after a pending read: %v, %v; want the task", r, err)
			}
		})
	}
}

// A box terminated before it was scheduled never gets a task: its reads
// answer the result without a task id.
func TestSandboxTerminatedBeforeScheduling(t *testing.T) {
	f := newFixture(t, false)
	cp, creds := rawClient(t, f.w)
	def := pb.Sandbox_builder{ImageId: f.image.ImageID, TimeoutSecs: 300}.Build()
	made, err := cp.SandboxCreateV2(creds(f.ctx, "create"), pb.SandboxCreateV2Request_builder{AppId: f.app.AppID, Definition: def}.Build())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.w.TerminateSandbox(made.GetSandboxId()); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"read1", "read2"} {
		r, err := cp.SandboxGetTaskIdV2(creds(f.ctx, key), pb.SandboxGetTaskIdRequest_builder{SandboxId: made.GetSandboxId()}.Build())
		if err != nil || r.HasTaskId() || r.GetTaskResult().GetStatus() != pb.GenericResult_GENERIC_STATUS_TERMINATED {
			t.Errorf("%s: %v, %v; want a result and no task", key, r, err)
		}
	}
}

// The V1 create waits for scheduling as the SDK does: two task id reads,
// the first pending.
func TestV1CreateWaitsForScheduling(t *testing.T) {
	f := newFixture(t, true)
	sb := f.create(t, nil)
	if n := f.w.Calls("SandboxGetTaskId"); n != 2 {
		t.Errorf("SandboxGetTaskId calls = %d, want 2 (pending, then scheduled)", n)
	}
	if v := f.view(t, sb.SandboxID); v.Finished {
		t.Errorf("box %+v, want running", v)
	}
}

// A V1 memory snapshot is done only once waited for: a wait without a
// timeout shows it pending once, and a restore meanwhile is refused.
func TestV1MemorySnapshotPendingUntilWaited(t *testing.T) {
	f := newFixture(t, true)
	sb := f.create(t, &modalSnapshotParams)
	cp, creds := rawClient(t, f.w)
	snap, err := cp.SandboxSnapshot(creds(f.ctx, "snap"), pb.SandboxSnapshotRequest_builder{SandboxId: sb.SandboxID}.Build())
	if err != nil {
		t.Fatal(err)
	}
	restore := func(key string) error {
		_, err := cp.SandboxRestore(creds(f.ctx, key), pb.SandboxRestoreRequest_builder{SnapshotId: snap.GetSnapshotId()}.Build())
		return err
	}
	if err := restore("early"); status.Code(err) != codes.FailedPrecondition {
		t.Errorf("restore of a pending snapshot: %v, want FailedPrecondition", err)
	}
	wait := func(key string) *pb.GenericResult {
		r, err := cp.SandboxSnapshotWait(creds(f.ctx, key), pb.SandboxSnapshotWaitRequest_builder{SnapshotId: snap.GetSnapshotId()}.Build())
		if err != nil {
			t.Fatal(err)
		}
		return r.GetResult()
	}
	if res := wait("w1"); res != nil {
		t.Errorf("first wait: %v, want no result while pending", res)
	}
	if res := wait("w2"); res.GetStatus() != pb.GenericResult_GENERIC_STATUS_SUCCESS {
		t.Errorf("second wait: %v, want success", res)
	}
	if err := restore("late"); err != nil {
		t.Errorf("restore of a done snapshot: %v", err)
	}
}

// Instant settles at once: built on the first join, scheduled at the
// create, listed at once.
func TestInstant(t *testing.T) {
	f := newFixture(t, false)
	f.w.Instant()
	before := f.w.Calls("ImageJoinStreaming")
	img, err := f.c.Images.FromRegistry("alpine:3.21", nil).DockerfileCommands([]string{"RUN echo fast"}, nil).Build(f.ctx, f.app, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.w.Calls("ImageJoinStreaming") - before; n != 1 {
		t.Errorf("joins = %d, want 1", n)
	}
	sb, err := f.c.Sandboxes.Create(f.ctx, f.app, img, &modal.SandboxCreateParams{})
	if err != nil {
		t.Fatal(err)
	}
	if ids := listIDs(t, f, nil); len(ids) != 1 || ids[0] != sb.SandboxID {
		t.Errorf("list = %v, want the new box", ids)
	}
	if n := f.w.Calls("SandboxGetTaskIdV2"); n != 0 {
		t.Errorf("SandboxGetTaskIdV2 calls = %d, want none: the create answered the task", n)
	}
}

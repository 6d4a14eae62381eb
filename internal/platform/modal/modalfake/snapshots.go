package modalfake

import (
	"context"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type memSnap struct {
	id, sandboxID string
	createdAt     time.Time
	v2            bool
	// pendingReads are the SandboxSnapshotWait calls without a timeout
	// still to answer without a result; pending is true until the snapshot
	// is done (async.go).
	pendingReads int
	pending      bool
}

// TaskSnapshotFilesystem makes an image of a running task's filesystem.
// ttl_seconds must be set (-1: never expires; positive: a hard cutoff from
// creation); a repeated snapshot_id answers the image made the first time.
func (r *router) TaskSnapshotFilesystem(ctx context.Context, req *pb.TaskSnapshotFilesystemRequest) (*pb.TaskSnapshotFilesystemResponse, error) {
	w := workspaceOf(ctx)
	if !req.HasTtlSeconds() {
		return nil, status.Error(codes.InvalidArgument, "ttl_seconds must be set")
	}
	ttl := req.GetTtlSeconds()
	if ttl == 0 || ttl < -1 {
		return nil, status.Errorf(codes.InvalidArgument, "ttl_seconds must be -1 (no expiry) or positive, got %d", ttl)
	}
	if req.GetSnapshotId() == "" {
		return nil, status.Error(codes.InvalidArgument, "snapshot_id is required")
	}
	if req.GetContainerId() != "" || len(req.GetCustomerSuppliedEncryptionKey()) > 0 {
		return nil, status.Error(codes.Unimplemented, "modalfake: sidecar containers and encryption keys are not modelled")
	}
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	if id, ok := w.fsSnapIDs[req.GetSnapshotId()]; ok {
		return pb.TaskSnapshotFilesystemResponse_builder{ImageId: id}.Build(), nil
	}
	// Both backends snapshot filesystems through the router.
	sb, err := w.sandboxOfTask(req.GetTaskId(), w.sandboxes[w.tasks[req.GetTaskId()]].isV2())
	if err != nil {
		return nil, err
	}
	if sb.finished {
		return nil, status.Errorf(codes.FailedPrecondition, "Task %s has already finished", sb.taskID)
	}
	img := &image{
		id:          newID("im"),
		baseImageID: sb.imageID,
		status:      imageReady,
		fromSandbox: sb.id,
		createdAt:   w.now,
	}
	if base := w.images[sb.imageID]; base != nil {
		img.commands = append([]string(nil), base.commands...)
	}
	if ttl > 0 {
		img.ttl = time.Duration(ttl) * time.Second
		img.expiresAt = w.now.Add(img.ttl)
	}
	w.images[img.id] = img
	w.fsSnapIDs[req.GetSnapshotId()] = img.id
	return pb.TaskSnapshotFilesystemResponse_builder{ImageId: img.id}.Build(), nil
}

// isV2 is false for a nil sandbox, so an unknown task falls to NOT_FOUND.
func (sb *sandbox) isV2() bool { return sb != nil && sb.v2 }

// TaskSnapshotMemory snapshots a V2 sandbox made with enable_snapshot and,
// as Modal does today, terminates it. A repeated idempotency_key answers
// the first snapshot.
func (r *router) TaskSnapshotMemory(ctx context.Context, req *pb.TaskSnapshotMemoryRequest) (*pb.TaskSnapshotMemoryResponse, error) {
	w := workspaceOf(ctx)
	if req.GetIdempotencyKey() == "" {
		return nil, status.Error(codes.InvalidArgument, "idempotency_key is required")
	}
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	if id, ok := w.memKeys[req.GetIdempotencyKey()]; ok {
		return pb.TaskSnapshotMemoryResponse_builder{SnapshotId: id}.Build(), nil
	}
	sb, err := w.sandboxOfTask(req.GetTaskId(), true)
	if err != nil {
		return nil, err
	}
	id, err := w.snapshotMemory(sb)
	if err != nil {
		return nil, err
	}
	w.memKeys[req.GetIdempotencyKey()] = id
	return pb.TaskSnapshotMemoryResponse_builder{SnapshotId: id}.Build(), nil
}

// snapshotMemory takes the snapshot and ends the sandbox; w.s.mu held.
func (w *Workspace) snapshotMemory(sb *sandbox) (string, error) {
	if sb.finished {
		return "", status.Errorf(codes.FailedPrecondition, "Sandbox %s has already finished", sb.id)
	}
	if !sb.enableSnapshot {
		return "", status.Errorf(codes.FailedPrecondition, "Sandbox %s was not created with enable_snapshot", sb.id)
	}
	sn := &memSnap{id: newID("sn"), sandboxID: sb.id, createdAt: w.now, v2: sb.v2}
	w.memSnaps[sn.id] = sn
	w.finish(sb, pb.GenericResult_GENERIC_STATUS_TERMINATED, "Sandbox terminated by a memory snapshot")
	return sn.id, nil
}

// SandboxSnapshot is the V1 memory snapshot; the SDK then waits for it with
// SandboxSnapshotWait. Retries are caught by the x-idempotency-key.
func (c *control) SandboxSnapshot(ctx context.Context, req *pb.SandboxSnapshotRequest) (*pb.SandboxSnapshotResponse, error) {
	w := workspaceOf(ctx)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	sb, err := w.sandboxFor(req.GetSandboxId(), false)
	if err != nil {
		return nil, err
	}
	id, err := w.snapshotMemory(sb)
	if err != nil {
		return nil, err
	}
	// The V1 snapshot is taken after this answer; its result comes from
	// SandboxSnapshotWait (async.go).
	if n := w.unsettledReads(); n > 0 {
		sn := w.memSnaps[id]
		sn.pending, sn.pendingReads = true, n
	}
	return pb.SandboxSnapshotResponse_builder{SnapshotId: id}.Build(), nil
}

// SandboxSnapshotWait answers a snapshot's result once it is done. A
// pending snapshot is finished by a wait with a timeout (Modal holds that
// call until it is done; the SDK sends 55 s); a wait without one answers
// no result while the snapshot is pending, and the snapshot is done after
// such a read (async.go).
func (c *control) SandboxSnapshotWait(ctx context.Context, req *pb.SandboxSnapshotWaitRequest) (*pb.SandboxSnapshotWaitResponse, error) {
	w := workspaceOf(ctx)
	if req.GetTimeout() < 0 {
		return nil, status.Error(codes.InvalidArgument, "timeout must not be negative")
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	sn, ok := w.memSnaps[req.GetSnapshotId()]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "Sandbox snapshot '%s' not found", req.GetSnapshotId())
	}
	if sn.pending {
		if req.GetTimeout() == 0 && sn.pendingReads > 0 {
			sn.pendingReads--
			return &pb.SandboxSnapshotWaitResponse{}, nil
		}
		sn.pending = false
	}
	return pb.SandboxSnapshotWaitResponse_builder{
		Result: pb.GenericResult_builder{Status: pb.GenericResult_GENERIC_STATUS_SUCCESS}.Build(),
	}.Build(), nil
}

func (c *control) SandboxSnapshotGet(ctx context.Context, req *pb.SandboxSnapshotGetRequest) (*pb.SandboxSnapshotGetResponse, error) {
	w := workspaceOf(ctx)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	sn, ok := w.memSnaps[req.GetSnapshotId()]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "Sandbox snapshot '%s' not found", req.GetSnapshotId())
	}
	return pb.SandboxSnapshotGetResponse_builder{
		SnapshotId:     sn.id,
		HandleMetadata: pb.SandboxSnapshotHandleMetadata_builder{IsV2: sn.v2}.Build(),
	}.Build(), nil
}

// SandboxRestore (V1) refuses volume mounts: the fake models restores with
// the snapshotted sandbox's own mounts only.
func (c *control) SandboxRestore(ctx context.Context, req *pb.SandboxRestoreRequest) (*pb.SandboxRestoreResponse, error) {
	w := workspaceOf(ctx)
	if req.GetReplaceVolumeMounts() || len(req.GetVolumeMounts()) > 0 {
		return nil, status.Error(codes.InvalidArgument, "modalfake: restoring with other volume mounts is not modelled")
	}
	if req.GetWorkerId() != "" {
		w.violation("SandboxRestore: worker_id is for Modal's internal debugging")
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	sb, err := w.restore(req.GetSnapshotId(), false, req.GetSandboxNameOverrideType(), req.GetSandboxNameOverride())
	if err != nil {
		return nil, err
	}
	return pb.SandboxRestoreResponse_builder{SandboxId: sb.id}.Build(), nil
}

func (c *control) SandboxRestoreV2(ctx context.Context, req *pb.SandboxRestoreV2Request) (*pb.SandboxRestoreV2Response, error) {
	w := workspaceOf(ctx)
	if req.GetWorkerId() != "" {
		w.violation("SandboxRestoreV2: worker_id is for Modal's internal debugging")
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	sb, err := w.restore(req.GetSnapshotId(), true, req.GetSandboxNameOverrideType(), req.GetSandboxNameOverride())
	if err != nil {
		return nil, err
	}
	a := c.s.v2Answer(w, sb)
	return pb.SandboxRestoreV2Response_builder{
		SandboxId:           a.GetSandboxId(),
		TaskId:              a.GetTaskId(),
		Metadata:            a.GetMetadata(),
		CommandRouterAccess: a.GetCommandRouterAccess(),
	}.Build(), nil
}

// restore starts a new sandbox of the snapshotted one's definition. The
// name is the original's (UNSPECIFIED), none (NONE) or the override
// (STRING). Tags belong to the create request, not the definition, so the
// restored sandbox starts without any; w.s.mu held.
func (w *Workspace) restore(snapID string, v2 bool, how pb.SandboxRestoreRequest_SandboxNameOverrideType, override string) (*sandbox, error) {
	sn, ok := w.memSnaps[snapID]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "Sandbox snapshot '%s' not found", snapID)
	}
	if sn.pending {
		return nil, status.Errorf(codes.FailedPrecondition, "Sandbox snapshot '%s' is not done yet", snapID)
	}
	if sn.v2 != v2 {
		return nil, status.Errorf(codes.FailedPrecondition, "snapshot %s was taken from a %s sandbox", snapID, map[bool]string{true: "V2", false: "V1"}[sn.v2])
	}
	orig, ok := w.sandboxes[sn.sandboxID]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "Sandbox snapshot '%s' not found", snapID)
	}
	name := orig.name
	switch how {
	case pb.SandboxRestoreRequest_SANDBOX_NAME_OVERRIDE_TYPE_UNSPECIFIED:
		if override != "" {
			return nil, status.Error(codes.InvalidArgument, "sandbox_name_override needs sandbox_name_override_type STRING")
		}
	case pb.SandboxRestoreRequest_SANDBOX_NAME_OVERRIDE_TYPE_NONE:
		if override != "" {
			return nil, status.Error(codes.InvalidArgument, "sandbox_name_override needs sandbox_name_override_type STRING")
		}
		name = ""
	case pb.SandboxRestoreRequest_SANDBOX_NAME_OVERRIDE_TYPE_STRING:
		if err := checkName("Sandbox", override); err != nil {
			return nil, err
		}
		name = override
	default:
		return nil, status.Errorf(codes.InvalidArgument, "unknown sandbox_name_override_type %d", how)
	}
	sb := &sandbox{
		appID:           orig.appID,
		name:            name,
		imageID:         orig.imageID,
		v2:              v2,
		tags:            map[string]string{},
		env:             orig.env,
		milliCPU:        orig.milliCPU,
		memoryMB:        orig.memoryMB,
		timeoutSecs:     orig.timeoutSecs,
		idleTimeoutSecs: orig.idleTimeoutSecs,
		enableSnapshot:  orig.enableSnapshot,
		mounts:          orig.mounts,
		definition:      orig.definition,
		restoredFrom:    sn.id,
	}
	if err := w.start(sb); err != nil {
		return nil, err
	}
	return sb, nil
}

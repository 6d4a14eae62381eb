package modalfake

import (
	"context"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

// maxWaitBlock bounds how long (real time) a wait with a timeout holds the
// call for a sandbox still running: the fake's clock only moves on Advance,
// so waiting longer could not change the answer and would only slow tests.
const maxWaitBlock = 50 * time.Millisecond

func (c *control) SandboxWait(ctx context.Context, req *pb.SandboxWaitRequest) (*pb.SandboxWaitResponse, error) {
	return c.wait(ctx, req, false)
}

func (c *control) SandboxWaitV2(ctx context.Context, req *pb.SandboxWaitRequest) (*pb.SandboxWaitResponse, error) {
	return c.wait(ctx, req, true)
}

func (c *control) wait(ctx context.Context, req *pb.SandboxWaitRequest, v2 bool) (*pb.SandboxWaitResponse, error) {
	w := workspaceOf(ctx)
	if req.GetTimeout() < 0 {
		return nil, status.Error(codes.InvalidArgument, "timeout must not be negative")
	}
	deadline := time.Now().Add(min(time.Duration(float64(req.GetTimeout())*float64(time.Second)), maxWaitBlock))
	read := false
	for {
		c.s.mu.Lock()
		sb, err := w.sandboxFor(req.GetSandboxId(), v2)
		var resp *pb.SandboxWaitResponse
		if err == nil && !read {
			// One call is one read of a sandbox still being scheduled
			// (async.go); it shows no result either way.
			sb.readState()
			read = true
		}
		if err == nil {
			resp = pb.SandboxWaitResponse_builder{
				Result:   sb.result,
				Metadata: pb.SandboxHandleMetadata_builder{AppId: sb.appID, Result: sb.result}.Build(),
			}.Build()
		}
		done := err != nil || sb.finished
		c.s.mu.Unlock()
		if done || !time.Now().Before(deadline) {
			return resp, err
		}
		select {
		case <-ctx.Done():
			return nil, status.FromContextError(ctx.Err()).Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func (c *control) SandboxTerminate(ctx context.Context, req *pb.SandboxTerminateRequest) (*pb.SandboxTerminateResponse, error) {
	return c.terminate(ctx, req, false)
}

func (c *control) SandboxTerminateV2(ctx context.Context, req *pb.SandboxTerminateRequest) (*pb.SandboxTerminateResponse, error) {
	return c.terminate(ctx, req, true)
}

// terminate finishes a running sandbox; one already finished keeps its
// result and answers it as existing_result.
func (c *control) terminate(ctx context.Context, req *pb.SandboxTerminateRequest, v2 bool) (*pb.SandboxTerminateResponse, error) {
	w := workspaceOf(ctx)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	sb, err := w.sandboxFor(req.GetSandboxId(), v2)
	if err != nil {
		return nil, err
	}
	if sb.finished {
		return pb.SandboxTerminateResponse_builder{ExistingResult: sb.result}.Build(), nil
	}
	w.finish(sb, pb.GenericResult_GENERIC_STATUS_TERMINATED, "Sandbox terminated")
	return &pb.SandboxTerminateResponse{}, nil
}

func (c *control) SandboxGetTaskId(ctx context.Context, req *pb.SandboxGetTaskIdRequest) (*pb.SandboxGetTaskIdResponse, error) {
	return c.taskID(ctx, req, false)
}

func (c *control) SandboxGetTaskIdV2(ctx context.Context, req *pb.SandboxGetTaskIdRequest) (*pb.SandboxGetTaskIdResponse, error) {
	return c.taskID(ctx, req, true)
}

// taskID answers a sandbox's task once it is scheduled: a new sandbox
// shows none to its first read (async.go), and one that finished before
// it was scheduled never has one ("None if the sandbox was terminated
// before a task could be scheduled", modal-api.proto
// SandboxGetTaskIdResponse). A finished one also carries its result. A
// call with a timeout or wait_until_ready is held by Modal until the task
// is there ("Legacy clients do not provide a timeout"; the SDK's V1
// restore sends both, sandbox.go ExperimentalFromSnapshot): the fake
// schedules the sandbox at such a read.
func (c *control) taskID(ctx context.Context, req *pb.SandboxGetTaskIdRequest, v2 bool) (*pb.SandboxGetTaskIdResponse, error) {
	w := workspaceOf(ctx)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	sb, err := w.sandboxFor(req.GetSandboxId(), v2)
	if err != nil {
		return nil, err
	}
	if (req.GetTimeout() > 0 || req.GetWaitUntilReady()) && !sb.finished {
		sb.pendingReads = 0
	}
	var b pb.SandboxGetTaskIdResponse_builder
	if sb.readState() {
		b.TaskId = &sb.taskID
	}
	if sb.finished {
		b.TaskResult = sb.result
	}
	return b.Build(), nil
}

func (c *control) SandboxTagsGet(ctx context.Context, req *pb.SandboxTagsGetRequest) (*pb.SandboxTagsGetResponse, error) {
	return c.tagsGet(ctx, req, false)
}

func (c *control) SandboxTagsGetV2(ctx context.Context, req *pb.SandboxTagsGetRequest) (*pb.SandboxTagsGetResponse, error) {
	return c.tagsGet(ctx, req, true)
}

func (c *control) tagsGet(ctx context.Context, req *pb.SandboxTagsGetRequest, v2 bool) (*pb.SandboxTagsGetResponse, error) {
	w := workspaceOf(ctx)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	sb, err := w.sandboxFor(req.GetSandboxId(), v2)
	if err != nil {
		return nil, err
	}
	return pb.SandboxTagsGetResponse_builder{Tags: tagList(sb.tags)}.Build(), nil
}

func tagList(tags map[string]string) []*pb.SandboxTag {
	out := make([]*pb.SandboxTag, 0, len(tags))
	for _, k := range sortedKeys(tags) {
		out = append(out, pb.SandboxTag_builder{TagName: k, TagValue: tags[k]}.Build())
	}
	return out
}

func (c *control) SandboxTagsSet(ctx context.Context, req *pb.SandboxTagsSetRequest) (*emptypb.Empty, error) {
	return c.tagsSet(ctx, req, false)
}

func (c *control) SandboxTagsSetV2(ctx context.Context, req *pb.SandboxTagsSetRequest) (*emptypb.Empty, error) {
	return c.tagsSet(ctx, req, true)
}

// tagsSet replaces the whole tag set: tags not sent are removed.
func (c *control) tagsSet(ctx context.Context, req *pb.SandboxTagsSetRequest, v2 bool) (*emptypb.Empty, error) {
	w := workspaceOf(ctx)
	if err := checkEnvironment(req.GetEnvironmentName()); err != nil {
		return nil, err
	}
	tags, err := checkTags(req.GetTags())
	if err != nil {
		return nil, err
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	sb, err := w.sandboxFor(req.GetSandboxId(), v2)
	if err != nil {
		return nil, err
	}
	sb.tags = tags
	return &emptypb.Empty{}, nil
}

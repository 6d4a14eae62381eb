package modalfake

import (
	"context"
	"sort"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// listPageSize is how many sandboxes one list answer holds at most; the
// SDK pages on with before_timestamp until an answer is empty.
const listPageSize = 25

// SandboxList is the V1 list: V1 sandboxes only.
func (c *control) SandboxList(ctx context.Context, req *pb.SandboxListRequest) (*pb.SandboxListResponse, error) {
	return c.list(ctx, req, false)
}

// SandboxListV2 lists V1 and V2 sandboxes alike, as the SDK documents.
func (c *control) SandboxListV2(ctx context.Context, req *pb.SandboxListRequest) (*pb.SandboxListResponse, error) {
	return c.list(ctx, req, true)
}

func (c *control) list(ctx context.Context, req *pb.SandboxListRequest, v2 bool) (*pb.SandboxListResponse, error) {
	w := workspaceOf(ctx)
	if err := checkEnvironment(req.GetEnvironmentName()); err != nil {
		return nil, err
	}
	want, err := checkTags(req.GetTags())
	if err != nil {
		return nil, err
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if req.GetAppId() != "" {
		if _, ok := w.apps[req.GetAppId()]; !ok {
			return nil, status.Errorf(codes.NotFound, "App '%s' not found", req.GetAppId())
		}
	}
	var hits []*sandbox
	for _, sb := range w.sandboxes {
		switch {
		case !v2 && sb.v2,
			req.GetAppId() != "" && sb.appID != req.GetAppId(),
			sb.finished && !req.GetIncludeFinished(),
			req.GetBeforeTimestamp() > 0 && sb.stamp >= req.GetBeforeTimestamp(),
			!hasTags(sb.tags, want):
			continue
		case sb.listHidden > 0:
			// Made a moment ago: this list does not show it yet (async.go).
			sb.listHidden--
			continue
		}
		hits = append(hits, sb)
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].stamp > hits[j].stamp })
	if len(hits) > listPageSize {
		hits = hits[:listPageSize]
	}
	out := make([]*pb.SandboxInfo, 0, len(hits))
	for _, sb := range hits {
		out = append(out, sb.info())
	}
	return pb.SandboxListResponse_builder{Sandboxes: out}.Build(), nil
}

func hasTags(have, want map[string]string) bool {
	for k, v := range want {
		if hv, ok := have[k]; !ok || hv != v {
			return false
		}
	}
	return true
}

// info is a box as a list reports it (SandboxInfo, modal-api.proto;
// platform-apis.md, Sandboxes: List): among the rest its name and image_id,
// the image its definition was made from (a box restored from a memory
// snapshot keeps its original's definition, so its image). Only a list
// reports these: no read of one box does.
func (sb *sandbox) info() *pb.SandboxInfo {
	ti := pb.TaskInfo_builder{SandboxId: sb.id, Result: sb.result}
	if sb.scheduled() {
		ti.Id = sb.taskID
		ti.StartedAt = float64(sb.startedAt.UnixNano()) / 1e9
	}
	if sb.finished {
		ti.FinishedAt = float64(sb.finishedAt.UnixNano()) / 1e9
	}
	b := pb.SandboxInfo_builder{
		Id:          sb.id,
		CreatedAt:   sb.stamp,
		TaskInfo:    ti.Build(),
		AppId:       sb.appID,
		Tags:        tagList(sb.tags),
		Name:        sb.name,
		ImageId:     sb.imageID,
		TimeoutSecs: sb.timeoutSecs,
		Metadata:    pb.SandboxHandleMetadata_builder{AppId: sb.appID, Result: sb.result}.Build(),
	}
	if sb.idleTimeoutSecs > 0 {
		idle := sb.idleTimeoutSecs
		b.IdleTimeoutSecs = &idle
	}
	return b.Build()
}

func (c *control) SandboxGetFromName(ctx context.Context, req *pb.SandboxGetFromNameRequest) (*pb.SandboxGetFromNameResponse, error) {
	return c.fromName(ctx, req, false)
}

func (c *control) SandboxGetFromNameV2(ctx context.Context, req *pb.SandboxGetFromNameRequest) (*pb.SandboxGetFromNameResponse, error) {
	return c.fromName(ctx, req, true)
}

// fromName finds the running sandbox of a name in an app, or with
// include_terminated the newest of that name.
func (c *control) fromName(ctx context.Context, req *pb.SandboxGetFromNameRequest, v2 bool) (*pb.SandboxGetFromNameResponse, error) {
	w := workspaceOf(ctx)
	if err := checkEnvironment(req.GetEnvironmentName()); err != nil {
		return nil, err
	}
	if err := checkName("Sandbox", req.GetSandboxName()); err != nil {
		return nil, err
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	a := w.appByName(req.GetAppName())
	if a == nil {
		return nil, status.Errorf(codes.NotFound, "App '%s' not found", req.GetAppName())
	}
	var best *sandbox
	for _, sb := range w.sandboxes {
		if sb.v2 != v2 || sb.appID != a.id || sb.name != req.GetSandboxName() {
			continue
		}
		if sb.finished && (!v2 || !req.GetIncludeTerminated()) {
			continue
		}
		if best == nil || (best.finished && !sb.finished) || (best.finished == sb.finished && sb.stamp > best.stamp) {
			best = sb
		}
	}
	if best == nil {
		return nil, status.Errorf(codes.NotFound, "Sandbox with name '%s' not found in App '%s'", req.GetSandboxName(), req.GetAppName())
	}
	return pb.SandboxGetFromNameResponse_builder{
		SandboxId: best.id,
		Metadata:  pb.SandboxHandleMetadata_builder{AppId: best.appID, Result: best.result}.Build(),
	}.Build(), nil
}

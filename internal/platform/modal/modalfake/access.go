package modalfake

import (
	"context"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// SandboxGetCommandRouterAccess (V2) names the sandbox or its task.
func (c *control) SandboxGetCommandRouterAccess(ctx context.Context, req *pb.SandboxGetCommandRouterAccessRequest) (*pb.SandboxGetCommandRouterAccessResponse, error) {
	w := workspaceOf(ctx)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	var sb *sandbox
	switch {
	case req.HasSandboxId():
		var err error
		if sb, err = w.sandboxFor(req.GetSandboxId(), true); err != nil {
			return nil, err
		}
	case req.HasTaskId():
		var err error
		if sb, err = w.sandboxOfTask(req.GetTaskId(), true); err != nil {
			return nil, err
		}
	default:
		return nil, status.Error(codes.InvalidArgument, "sandbox_id or task_id is required")
	}
	if sb.finished {
		return nil, status.Errorf(codes.FailedPrecondition, "Sandbox %s has already finished", sb.id)
	}
	// The SDK asks only once it has the task id (sandbox.go,
	// getCommandRouter calls ensureTaskID first); a box not scheduled yet
	// has no task to route to.
	if !sb.scheduled() {
		return nil, status.Errorf(codes.FailedPrecondition, "Sandbox %s has no task yet", sb.id)
	}
	acc := c.s.routerAccess(w, sb.taskID)
	return pb.SandboxGetCommandRouterAccessResponse_builder{Jwt: acc.GetJwt(), Url: acc.GetUrl()}.Build(), nil
}

// TaskGetCommandRouterAccess (V1) names the task.
func (c *control) TaskGetCommandRouterAccess(ctx context.Context, req *pb.TaskGetCommandRouterAccessRequest) (*pb.TaskGetCommandRouterAccessResponse, error) {
	w := workspaceOf(ctx)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	sb, err := w.sandboxOfTask(req.GetTaskId(), false)
	if err != nil {
		return nil, err
	}
	if sb.finished {
		return nil, status.Errorf(codes.FailedPrecondition, "Task %s has already finished", sb.taskID)
	}
	acc := c.s.routerAccess(w, sb.taskID)
	return pb.TaskGetCommandRouterAccessResponse_builder{Jwt: acc.GetJwt(), Url: acc.GetUrl()}.Build(), nil
}

// sandboxOfTask finds a task's sandbox of one backend; w.s.mu held.
func (w *Workspace) sandboxOfTask(taskID string, v2 bool) (*sandbox, error) {
	id, ok := w.tasks[taskID]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "Task '%s' not found", taskID)
	}
	sb, ok := w.sandboxes[id]
	// A task not scheduled yet is known to no client (async.go).
	if !ok || sb.v2 != v2 || !sb.scheduled() {
		return nil, status.Errorf(codes.NotFound, "Task '%s' not found", taskID)
	}
	return sb, nil
}

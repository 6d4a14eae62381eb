package modalfake

import (
	"context"
	"maps"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// SandboxCreate is the V1 create: env vars arrive folded into ephemeral
// secrets listed in definition.secret_ids.
func (c *control) SandboxCreate(ctx context.Context, req *pb.SandboxCreateRequest) (*pb.SandboxCreateResponse, error) {
	w := workspaceOf(ctx)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	sb, err := w.validateDefinition(req.GetAppId(), req.GetDefinition(), req.GetTags())
	if err != nil {
		return nil, err
	}
	sb.env = w.envOfSecrets(req.GetDefinition().GetSecretIds())
	if err := w.start(sb); err != nil {
		return nil, err
	}
	return pb.SandboxCreateResponse_builder{
		SandboxId: sb.id,
		Metadata:  pb.SandboxHandleMetadata_builder{AppId: sb.appID}.Build(),
	}.Build(), nil
}

// SandboxCreateV2 takes env vars and secrets as ordered secret_sources (or
// the older ephemeral_secrets), and answers with the task and router access
// so the SDK needs no further round trip.
func (c *control) SandboxCreateV2(ctx context.Context, req *pb.SandboxCreateV2Request) (*pb.SandboxCreateV2Response, error) {
	w := workspaceOf(ctx)
	if len(req.GetCloudBucketMountCredentials()) > 0 {
		return nil, status.Error(codes.Unimplemented, "modalfake: cloud bucket mounts are not modelled")
	}
	if req.HasEphemeralSecrets() && len(req.GetSecretSources()) > 0 {
		return nil, status.Error(codes.InvalidArgument, "secret_sources cannot be combined with ephemeral_secrets")
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	sb, err := w.validateDefinition(req.GetAppId(), req.GetDefinition(), req.GetTags())
	if err != nil {
		return nil, err
	}
	env, err := w.envOfSources(req)
	if err != nil {
		return nil, err
	}
	sb.env = env
	sb.v2 = true
	if err := w.start(sb); err != nil {
		return nil, err
	}
	return c.s.v2Answer(w, sb), nil
}

// v2Answer is what a V2 create or restore answers: the sandbox, and its
// task with router access once scheduled; a sandbox not scheduled yet is
// answered without them and the SDK polls SandboxGetTaskIdV2 (async.go);
// s.mu held.
func (s *Server) v2Answer(w *Workspace, sb *sandbox) *pb.SandboxCreateV2Response {
	b := pb.SandboxCreateV2Response_builder{
		SandboxId: sb.id,
		Metadata:  pb.SandboxHandleMetadata_builder{AppId: sb.appID}.Build(),
	}
	if sb.scheduled() {
		b.TaskId = sb.taskID
		b.CommandRouterAccess = s.routerAccess(w, sb.taskID)
	}
	return b.Build()
}

// envOfSources resolves a V2 create's environment: secret_sources in order
// (a definition's secret_ids must be exactly their secret_id entries), or
// definition.secret_ids then ephemeral_secrets; w.s.mu held.
func (w *Workspace) envOfSources(req *pb.SandboxCreateV2Request) (map[string]string, error) {
	def := req.GetDefinition()
	if len(req.GetSecretSources()) == 0 {
		env := w.envOfSecrets(def.GetSecretIds())
		maps.Copy(env, req.GetEphemeralSecrets().GetContents())
		return env, nil
	}
	env := map[string]string{}
	var ids []string
	for _, src := range req.GetSecretSources() {
		switch {
		case src.HasSecretId():
			vals, ok := w.secrets[src.GetSecretId()]
			if !ok {
				return nil, status.Errorf(codes.NotFound, "Secret '%s' not found", src.GetSecretId())
			}
			ids = append(ids, src.GetSecretId())
			maps.Copy(env, vals)
		case src.HasEnv():
			maps.Copy(env, src.GetEnv().GetContents())
		default:
			return nil, status.Error(codes.InvalidArgument, "secret source without secret_id or env")
		}
	}
	if got := def.GetSecretIds(); len(got) > 0 && !equalStrings(got, ids) {
		return nil, status.Error(codes.InvalidArgument, "definition.secret_ids must match the secret_id entries of secret_sources")
	}
	return env, nil
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// routerAccess mints a router JWT for one task; s.mu held.
func (s *Server) routerAccess(w *Workspace, taskID string) *pb.CommandRouterAccess {
	jwt := mintJWT(taskID, nowPlus(tokenLifetime))
	s.grants[jwt] = grant{ws: w, taskID: taskID}
	return pb.CommandRouterAccess_builder{Jwt: jwt, Url: s.routerURL()}.Build()
}

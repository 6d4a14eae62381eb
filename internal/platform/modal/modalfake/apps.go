package modalfake

import (
	"context"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type app struct {
	id, name string
}

// imageBuilderVersion is what EnvironmentGetOrCreate announces and
// ImageGetOrCreate expects back (the SDK asks the environment, then sends it).
const imageBuilderVersion = "2025.06"

// knownBuilderVersions are the builder versions Modal documents.
var knownBuilderVersions = map[string]bool{"2023.12": true, "2024.04": true, "2024.10": true, "2025.06": true, "PREVIEW": true}

func (c *control) AuthTokenGet(ctx context.Context, _ *pb.AuthTokenGetRequest) (*pb.AuthTokenGetResponse, error) {
	w := workspaceOf(ctx)
	tok := mintJWT(w.tokenID, time.Now().Add(tokenLifetime))
	c.s.mu.Lock()
	c.s.authTokens[tok] = w
	c.s.mu.Unlock()
	return pb.AuthTokenGetResponse_builder{Token: tok}.Build(), nil
}

func (c *control) EnvironmentGetOrCreate(ctx context.Context, req *pb.EnvironmentGetOrCreateRequest) (*pb.EnvironmentGetOrCreateResponse, error) {
	w := workspaceOf(ctx)
	if req.GetObjectCreationType() != pb.ObjectCreationType_OBJECT_CREATION_TYPE_UNSPECIFIED {
		return nil, status.Error(codes.Unimplemented, "modalfake: EnvironmentGetOrCreate only looks environments up")
	}
	if err := checkEnvironment(req.GetDeploymentName()); err != nil {
		return nil, err
	}
	return pb.EnvironmentGetOrCreateResponse_builder{
		EnvironmentId: w.envID,
		Metadata: pb.EnvironmentMetadata_builder{
			Name: defaultEnvironment,
			Settings: pb.EnvironmentSettings_builder{
				ImageBuilderVersion: imageBuilderVersion,
				WebhookSuffix:       "modal.run",
			}.Build(),
		}.Build(),
	}.Build(), nil
}

func (c *control) AppGetOrCreate(ctx context.Context, req *pb.AppGetOrCreateRequest) (*pb.AppGetOrCreateResponse, error) {
	w := workspaceOf(ctx)
	if err := checkName("App", req.GetAppName()); err != nil {
		return nil, err
	}
	if err := checkEnvironment(req.GetEnvironmentName()); err != nil {
		return nil, err
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	for _, a := range w.apps {
		if a.name == req.GetAppName() {
			return pb.AppGetOrCreateResponse_builder{AppId: a.id}.Build(), nil
		}
	}
	switch req.GetObjectCreationType() {
	case pb.ObjectCreationType_OBJECT_CREATION_TYPE_UNSPECIFIED:
		return nil, status.Errorf(codes.NotFound, "App '%s' not found", req.GetAppName())
	case pb.ObjectCreationType_OBJECT_CREATION_TYPE_CREATE_IF_MISSING:
		a := &app{id: newID("ap"), name: req.GetAppName()}
		w.apps[a.id] = a
		return pb.AppGetOrCreateResponse_builder{AppId: a.id}.Build(), nil
	default:
		return nil, status.Errorf(codes.Unimplemented, "modalfake: AppGetOrCreate with %s", req.GetObjectCreationType())
	}
}

// appByName finds an app; w.s.mu held.
func (w *Workspace) appByName(name string) *app {
	for _, a := range w.apps {
		if a.name == name {
			return a
		}
	}
	return nil
}

// SecretGetOrCreate serves only what the SDK sends for env vars of a V1
// sandbox: an EPHEMERAL secret holding an env dict.
func (c *control) SecretGetOrCreate(ctx context.Context, req *pb.SecretGetOrCreateRequest) (*pb.SecretGetOrCreateResponse, error) {
	w := workspaceOf(ctx)
	if req.GetObjectCreationType() != pb.ObjectCreationType_OBJECT_CREATION_TYPE_EPHEMERAL {
		return nil, status.Errorf(codes.Unimplemented, "modalfake: SecretGetOrCreate with %s (only EPHEMERAL)", req.GetObjectCreationType())
	}
	if err := checkEnvironment(req.GetEnvironmentName()); err != nil {
		return nil, err
	}
	for k := range req.GetEnvDict() {
		if k == "" {
			return nil, status.Error(codes.InvalidArgument, "Secret keys must not be empty")
		}
	}
	id := newID("st")
	env := map[string]string{}
	for k, v := range req.GetEnvDict() {
		env[k] = v
	}
	c.s.mu.Lock()
	w.secrets[id] = env
	c.s.mu.Unlock()
	return pb.SecretGetOrCreateResponse_builder{SecretId: id}.Build(), nil
}

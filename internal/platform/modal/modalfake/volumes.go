package modalfake

import (
	"context"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

type volume struct {
	id, name  string
	version   pb.VolumeFsVersion
	createdAt time.Time
}

// VolumeGetOrCreate looks a named volume up (UNSPECIFIED), creates it when
// missing (CREATE_IF_MISSING, adopting an existing one silently) or only
// when missing (CREATE_FAIL_IF_EXISTS). New volumes are VolumeFS V2 unless
// V1 is asked for.
func (c *control) VolumeGetOrCreate(ctx context.Context, req *pb.VolumeGetOrCreateRequest) (*pb.VolumeGetOrCreateResponse, error) {
	w := workspaceOf(ctx)
	if err := checkEnvironment(req.GetEnvironmentName()); err != nil {
		return nil, err
	}
	how := req.GetObjectCreationType()
	switch how {
	case pb.ObjectCreationType_OBJECT_CREATION_TYPE_UNSPECIFIED,
		pb.ObjectCreationType_OBJECT_CREATION_TYPE_CREATE_IF_MISSING,
		pb.ObjectCreationType_OBJECT_CREATION_TYPE_CREATE_FAIL_IF_EXISTS:
	default:
		return nil, status.Errorf(codes.Unimplemented, "modalfake: VolumeGetOrCreate with %s", how)
	}
	if err := checkName("Volume", req.GetDeploymentName()); err != nil {
		return nil, err
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if v := w.volumeByName(req.GetDeploymentName()); v != nil {
		if how == pb.ObjectCreationType_OBJECT_CREATION_TYPE_CREATE_FAIL_IF_EXISTS {
			return nil, status.Errorf(codes.AlreadyExists, "Volume '%s' already exists", v.name)
		}
		return v.answer(), nil
	}
	if how == pb.ObjectCreationType_OBJECT_CREATION_TYPE_UNSPECIFIED {
		return nil, status.Errorf(codes.NotFound, "Volume '%s' not found", req.GetDeploymentName())
	}
	version := req.GetVersion()
	if version == pb.VolumeFsVersion_VOLUME_FS_VERSION_UNSPECIFIED {
		version = pb.VolumeFsVersion_VOLUME_FS_VERSION_V2
	}
	return w.newVolume(req.GetDeploymentName(), version).answer(), nil
}

// newVolume adds a volume; w.s.mu held.
func (w *Workspace) newVolume(name string, version pb.VolumeFsVersion) *volume {
	v := &volume{id: newID("vo"), name: name, version: version, createdAt: w.now}
	w.volumes[v.id] = v
	return v
}

// volumeByName; w.s.mu held.
func (w *Workspace) volumeByName(name string) *volume {
	for _, v := range w.volumes {
		if v.name == name {
			return v
		}
	}
	return nil
}

func (v *volume) answer() *pb.VolumeGetOrCreateResponse {
	return pb.VolumeGetOrCreateResponse_builder{
		VolumeId: v.id,
		Version:  v.version,
		Metadata: pb.VolumeMetadata_builder{
			Version:      v.version,
			Name:         v.name,
			CreationInfo: pb.CreationInfo_builder{CreatedAt: float64(v.createdAt.UnixNano()) / 1e9}.Build(),
		}.Build(),
	}.Build()
}

func (c *control) VolumeDelete(ctx context.Context, req *pb.VolumeDeleteRequest) (*emptypb.Empty, error) {
	w := workspaceOf(ctx)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if _, ok := w.volumes[req.GetVolumeId()]; !ok {
		return nil, status.Errorf(codes.NotFound, "Volume '%s' not found", req.GetVolumeId())
	}
	delete(w.volumes, req.GetVolumeId())
	return &emptypb.Empty{}, nil
}

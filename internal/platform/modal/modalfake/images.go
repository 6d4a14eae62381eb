package modalfake

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

const (
	imageBuilding = "building"
	imageReady    = "ready"
	imageFailed   = "failed"
)

type image struct {
	id          string
	key         string // content key; "" for snapshot images, which are never shared
	commands    []string
	baseImageID string
	status      string
	exception   string
	ttl         time.Duration
	fromSandbox string
	// joinsLeft are the ImageJoinStreaming calls still to end without the
	// build's result (async.go).
	joinsLeft int
	createdAt time.Time
	expiresAt time.Time
}

// contentKey identifies an image by what it is built from: Modal images are
// content-addressed, so the same layer on the same base is the same image.
func contentKey(req *pb.ImageGetOrCreateRequest) string {
	var b strings.Builder
	im := req.GetImage()
	for _, c := range im.GetDockerfileCommands() {
		fmt.Fprintf(&b, "cmd %q\n", c)
	}
	for _, base := range im.GetBaseImages() {
		fmt.Fprintf(&b, "base %q %q\n", base.GetDockerTag(), base.GetImageId())
	}
	for _, s := range im.GetSecretIds() {
		fmt.Fprintf(&b, "secret %q\n", s)
	}
	fmt.Fprintf(&b, "builder %q\n", req.GetBuilderVersion())
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

func (c *control) ImageGetOrCreate(ctx context.Context, req *pb.ImageGetOrCreateRequest) (*pb.ImageGetOrCreateResponse, error) {
	w := workspaceOf(ctx)
	im := req.GetImage()
	if im == nil {
		return nil, status.Error(codes.InvalidArgument, "image is required")
	}
	if req.GetExistingImageId() != "" || req.GetBuildFunctionId() != "" || im.HasGpuConfig() || len(im.GetContextFiles()) > 0 {
		return nil, status.Error(codes.Unimplemented, "modalfake: ImageGetOrCreate with existing_image_id, build_function_id, gpu_config or context_files")
	}
	if !knownBuilderVersions[req.GetBuilderVersion()] {
		return nil, status.Errorf(codes.InvalidArgument, "unsupported image builder version %q", req.GetBuilderVersion())
	}
	cmds := im.GetDockerfileCommands()
	if len(cmds) == 0 || !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(cmds[0])), "FROM ") {
		return nil, status.Error(codes.InvalidArgument, "dockerfile_commands must start with a FROM instruction")
	}
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if _, ok := w.apps[req.GetAppId()]; !ok {
		return nil, status.Errorf(codes.NotFound, "App '%s' not found", req.GetAppId())
	}
	var baseID string
	for _, b := range im.GetBaseImages() {
		base, ok := w.images[b.GetImageId()]
		if !ok {
			return nil, status.Errorf(codes.NotFound, "Image '%s' not found", b.GetImageId())
		}
		if base.status != imageReady {
			return nil, status.Errorf(codes.FailedPrecondition, "base image %s is %s", base.id, base.status)
		}
		baseID = base.id
	}
	for _, s := range im.GetSecretIds() {
		if _, ok := w.secrets[s]; !ok {
			return nil, status.Errorf(codes.NotFound, "Secret '%s' not found", s)
		}
	}
	key := contentKey(req)
	if id, ok := w.imageKeys[key]; ok && !req.GetForceBuild() {
		if existing := w.images[id]; existing != nil && existing.status != imageFailed {
			return imageAnswer(existing), nil
		}
	}
	// A new build, or a rebuild after a failure or on force_build: Modal
	// gives every build its own image id.
	img := &image{
		id:          newID("im"),
		key:         key,
		commands:    append([]string(nil), cmds...),
		baseImageID: baseID,
		status:      imageBuilding,
		createdAt:   w.now,
		joinsLeft:   w.unsettledReads(),
	}
	w.images[img.id] = img
	w.imageKeys[key] = img.id
	return imageAnswer(img), nil
}

// imageAnswer has a result only once the build is over; while it runs the
// SDK joins the build with ImageJoinStreaming.
func imageAnswer(img *image) *pb.ImageGetOrCreateResponse {
	b := pb.ImageGetOrCreateResponse_builder{ImageId: img.id}
	if img.status != imageBuilding {
		b.Result = img.result()
	}
	return b.Build()
}

func (img *image) result() *pb.GenericResult {
	switch img.status {
	case imageReady:
		return pb.GenericResult_builder{Status: pb.GenericResult_GENERIC_STATUS_SUCCESS}.Build()
	case imageFailed:
		return pb.GenericResult_builder{Status: pb.GenericResult_GENERIC_STATUS_FAILURE, Exception: img.exception}.Build()
	}
	return nil
}

var exitN = regexp.MustCompile(`^exit\s+(\d+)$`)

// build runs an image's layer the only way the fake can: a RUN that is
// "false" or "exit N" (N≠0) fails with the builder's message, anything
// else succeeds.
func (img *image) build() {
	if img.status != imageBuilding {
		return
	}
	for _, c := range img.commands {
		trimmed := strings.TrimSpace(c)
		if !strings.HasPrefix(strings.ToUpper(trimmed), "RUN ") {
			continue
		}
		sh := strings.TrimSpace(trimmed[4:])
		code := ""
		if sh == "false" {
			code = "1"
		} else if m := exitN.FindStringSubmatch(sh); m != nil && strings.TrimLeft(m[1], "0") != "" {
			code = m[1]
		}
		if code != "" {
			img.status = imageFailed
			img.exception = fmt.Sprintf("Image build for %s failed: the command %q exited with status %s. See the build logs for details.", img.id, trimmed, code)
			return
		}
	}
	img.status = imageReady
}

func (c *control) ImageJoinStreaming(req *pb.ImageJoinStreamingRequest, stream grpc.ServerStreamingServer[pb.ImageJoinStreamingResponse]) error {
	w := workspaceOf(stream.Context())
	c.s.mu.Lock()
	img, ok := w.images[req.GetImageId()]
	var res *pb.GenericResult
	still := false
	if ok {
		// A join of a build still running streams progress and ends
		// without a result, as Modal's does when its timeout passes; the
		// SDK joins again (async.go).
		if still = img.status == imageBuilding && img.joinsLeft > 0; still {
			img.joinsLeft--
		} else {
			img.build()
			res = img.result()
		}
	}
	c.s.mu.Unlock()
	if !ok {
		return status.Errorf(codes.NotFound, "Image '%s' not found", req.GetImageId())
	}
	logs := pb.ImageJoinStreamingResponse_builder{
		TaskLogs: []*pb.TaskLogs{pb.TaskLogs_builder{Data: "Building image " + img.id + "\n"}.Build()},
		EntryId:  "1",
	}.Build()
	if err := stream.Send(logs); err != nil {
		return err
	}
	if still {
		return nil
	}
	return stream.Send(pb.ImageJoinStreamingResponse_builder{Result: res, EntryId: "2", Eof: true}.Build())
}

func (c *control) ImageFromId(ctx context.Context, req *pb.ImageFromIdRequest) (*pb.ImageFromIdResponse, error) {
	w := workspaceOf(ctx)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if _, ok := w.images[req.GetImageId()]; !ok {
		return nil, status.Errorf(codes.NotFound, "Image '%s' not found", req.GetImageId())
	}
	return pb.ImageFromIdResponse_builder{ImageId: req.GetImageId()}.Build(), nil
}

func (c *control) ImageDelete(ctx context.Context, req *pb.ImageDeleteRequest) (*emptypb.Empty, error) {
	w := workspaceOf(ctx)
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if _, ok := w.images[req.GetImageId()]; !ok {
		return nil, status.Errorf(codes.NotFound, "Image '%s' not found", req.GetImageId())
	}
	w.dropImage(req.GetImageId())
	return &emptypb.Empty{}, nil
}

// dropImage forgets an image; w.s.mu held.
func (w *Workspace) dropImage(id string) {
	if img := w.images[id]; img != nil && img.key != "" && w.imageKeys[img.key] == id {
		delete(w.imageKeys, img.key)
	}
	delete(w.images, id)
}

package modal

import (
	"context"
	"sync"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc"
)

// imageGetOrCreate is the RPC an image build starts each layer with; its
// answer names the layer's image before the build runs.
const imageGetOrCreate = "/modal.client.ModalClient/ImageGetOrCreate"

// imageRecorder keeps the id of the last image a build asked Modal for.
// Image.Build returns no image when the build fails, yet the image exists
// on Modal (its failed build is recorded there): the recorder gives the
// template create that id, so the provider keeps the failed template in
// state, tainted, and deletes it, instead of orphaning it.
type imageRecorder struct {
	mu   sync.Mutex
	last string
}

func (r *imageRecorder) record(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.last = id
}

// lastID is the last image id recorded, "" when none was.
func (r *imageRecorder) lastID() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

type recorderKey struct{}

// withImageRecorder returns ctx carrying rec: the SDK passes the call's
// context down to the gRPC call, where recordImageIDs finds it.
func withImageRecorder(ctx context.Context, rec *imageRecorder) context.Context {
	return context.WithValue(ctx, recorderKey{}, rec)
}

// recordImageIDs is a unary interceptor (ClientParams.GRPCUnaryInterceptors,
// innermost, so it sees each attempt's answer) recording the image id of
// every ImageGetOrCreate answer into the recorder its context carries.
func recordImageIDs(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := invoker(ctx, method, req, reply, cc, opts...)
	if err != nil || method != imageGetOrCreate {
		return err
	}
	rec, _ := ctx.Value(recorderKey{}).(*imageRecorder)
	resp, _ := reply.(*pb.ImageGetOrCreateResponse)
	if rec != nil && resp != nil && resp.GetImageId() != "" {
		rec.record(resp.GetImageId())
	}
	return nil
}

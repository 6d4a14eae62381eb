package modal

import (
	"context"
	"sync"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc"
)

// The RPCs that answer with each listed box's SandboxInfo (the SDK's
// List calls SandboxList, or SandboxListV2 on a V2 profile).
const (
	sandboxList   = "/modal.client.ModalClient/SandboxList"
	sandboxListV2 = "/modal.client.ModalClient/SandboxListV2"
)

// listedBox is what Modal reports of a box in a list's answer alone
// (SandboxInfo, modal-api.proto): its name, the image it was made from,
// when it was made and its timeout. The SDK reduces a list to ids and no
// other RPC reports these, so a recorder keeps them from the answers as
// they pass.
type listedBox struct {
	Name      string
	ImageID   string
	CreatedAt time.Time
	// Timeout is the box's lifetime, after which Modal ends it (the
	// default, 5 minutes, when its maker set none); 0 when unreported.
	Timeout time.Duration
}

// listedRecorder keeps the SandboxInfo of every box the lists made under
// its context answered with, by id.
type listedRecorder struct {
	mu    sync.Mutex
	boxes map[string]listedBox
}

func (r *listedRecorder) record(infos []*pb.SandboxInfo) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.boxes == nil {
		r.boxes = map[string]listedBox{}
	}
	for _, info := range infos {
		b := listedBox{Name: info.GetName(), ImageID: info.GetImageId(), Timeout: time.Duration(info.GetTimeoutSecs()) * time.Second}
		if at := info.GetCreatedAt(); at > 0 {
			b.CreatedAt = time.Unix(0, int64(at*1e9)).UTC()
		}
		r.boxes[info.GetId()] = b
	}
}

// box is what the lists reported of id; false when none listed it.
func (r *listedRecorder) box(id string) (listedBox, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok := r.boxes[id]
	return b, ok
}

type listedKey struct{}

// withListedRecorder returns ctx carrying rec: the SDK passes a list's
// context down to each page's gRPC call, where recordListed finds it.
func withListedRecorder(ctx context.Context, rec *listedRecorder) context.Context {
	return context.WithValue(ctx, listedKey{}, rec)
}

// recordListed is a unary interceptor (ClientParams.GRPCUnaryInterceptors)
// recording every SandboxList answer's boxes into the recorder its context
// carries.
func recordListed(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	err := invoker(ctx, method, req, reply, cc, opts...)
	if err != nil || (method != sandboxList && method != sandboxListV2) {
		return err
	}
	rec, _ := ctx.Value(listedKey{}).(*listedRecorder)
	resp, _ := reply.(*pb.SandboxListResponse)
	if rec != nil && resp != nil {
		rec.record(resp.GetSandboxes())
	}
	return nil
}

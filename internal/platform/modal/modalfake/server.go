package modalfake

import (
	"context"
	"fmt"
	"net"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Server is a running fake: the control plane (modal.client.ModalClient) on
// one loopback port and the task command router on another. All methods are
// safe for concurrent use.
type Server struct {
	cp, router       *grpc.Server
	cpLis, routerLis net.Listener

	// mu guards every workspace's state as well as the maps below: the fake
	// is small, and one lock keeps cross-object rules (a name unique among an
	// app's running sandboxes, a volume mounted by a sandbox) simple.
	mu         sync.Mutex
	workspaces map[string]*Workspace // by token id
	authTokens map[string]*Workspace // x-modal-auth-token → its workspace
	grants     map[string]grant      // router JWT → what it grants

	// connMu guards conns, the open connections of both services by their
	// ends (connKey), which DropRequest cuts.
	connMu sync.Mutex
	conns  map[string]*trackedConn
}

// grant is what one router JWT lets its bearer reach.
type grant struct {
	ws     *Workspace
	taskID string
}

// Start listens on two loopback ports and serves until Close.
func Start() (*Server, error) {
	cpLis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("modalfake: listen: %w", err)
	}
	routerLis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = cpLis.Close()
		return nil, fmt.Errorf("modalfake: listen: %w", err)
	}
	s := &Server{
		workspaces: map[string]*Workspace{},
		authTokens: map[string]*Workspace{},
		grants:     map[string]grant{},
		conns:      map[string]*trackedConn{},
	}
	s.cpLis = &trackingListener{Listener: cpLis, s: s}
	s.routerLis = &trackingListener{Listener: routerLis, s: s}
	s.cp = grpc.NewServer(sdkKeepalive, grpc.ChainUnaryInterceptor(s.controlUnary), grpc.ChainStreamInterceptor(s.controlStream))
	pb.RegisterModalClientServer(s.cp, &control{s: s})
	s.router = grpc.NewServer(sdkKeepalive, grpc.ChainUnaryInterceptor(s.routerUnary), grpc.ChainStreamInterceptor(s.routerStream))
	pb.RegisterTaskCommandRouterServer(s.router, &router{s: s})
	go func() { _ = s.cp.Serve(s.cpLis) }()
	go func() { _ = s.router.Serve(s.routerLis) }()
	return s, nil
}

// sdkKeepalive accepts the keepalive pings the Go SDK sends on both of its
// connections (client.go, task_command_router_client.go: every 30 s, with or
// without a call open), as Modal's servers do. grpc-go's default policy
// allows one every 5 minutes with a call open and answers more with a
// GOAWAY "too_many_pings", which closes every call then on the connection:
// a fake with that default drops a long test's calls where Modal would not.
// MinTime leaves the SDK's 30 s a margin: a ping a little early is a strike.
var sdkKeepalive = grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{
	MinTime:             10 * time.Second,
	PermitWithoutStream: true,
})

// URL is the control plane's address, for MODAL_SERVER_URL. The SDK dials
// plaintext for http:// and, because the host is loopback, also reaches the
// router (announced as https) without TLS.
func (s *Server) URL() string { return "http://" + s.cpLis.Addr().String() }

// routerURL is what the command-router access RPCs announce: the SDK insists
// on https but uses insecure credentials when the server URL is loopback.
func (s *Server) routerURL() string { return "https://" + s.routerLis.Addr().String() }

// Close stops both services at once, cutting open streams.
func (s *Server) Close() {
	s.cp.Stop()
	s.router.Stop()
}

// NewWorkspace makes a fresh tenant with its own credentials. When t ends,
// the cleanup fails t listing every unimplemented RPC called and every
// protocol violation seen in the workspace.
func (s *Server) NewWorkspace(t testing.TB) *Workspace {
	t.Helper()
	s.mu.Lock()
	w := newWorkspace(s, t)
	s.workspaces[w.tokenID] = w
	s.mu.Unlock()
	t.Cleanup(func() {
		s.mu.Lock()
		unimpl := append([]string(nil), w.unimplemented...)
		viol := append([]string(nil), w.violations...)
		s.mu.Unlock()
		for _, u := range unimpl {
			t.Errorf("modalfake: unimplemented RPC called: %s", u)
		}
		for _, v := range viol {
			t.Errorf("modalfake: request violation: %s", v)
		}
	})
	return w
}

type wsKey struct{}

// workspaceOf is the workspace an interceptor authenticated the call for.
func workspaceOf(ctx context.Context) *Workspace {
	w, _ := ctx.Value(wsKey{}).(*Workspace)
	return w
}

func first(md metadata.MD, key string) string {
	if v := md.Get(key); len(v) > 0 {
		return v[0]
	}
	return ""
}

// authenticate finds the workspace of a call's token id and secret.
func (s *Server) authenticate(md metadata.MD) (*Workspace, error) {
	id, secret := first(md, "x-modal-token-id"), first(md, "x-modal-token-secret")
	if id == "" || secret == "" {
		return nil, status.Error(codes.Unauthenticated, "missing x-modal-token-id / x-modal-token-secret")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w, ok := s.workspaces[id]
	if !ok || w.tokenSecret != secret {
		return nil, status.Error(codes.Unauthenticated, "Token ID or secret is invalid. Please check your Modal credentials.")
	}
	return w, nil
}

// checkClientHeaders records a violation for a call without the headers
// every SDK call carries.
func (s *Server) checkClientHeaders(w *Workspace, method string, md metadata.MD) {
	for _, h := range []string{"x-modal-client-type", "x-modal-client-version"} {
		if first(md, h) == "" {
			w.violation("%s: missing %s metadata", method, h)
		}
	}
}

// controlUnary authenticates a control-plane call, applies the workspace's
// faults and idempotency, and records UNIMPLEMENTED answers.
func (s *Server) controlUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	method := path.Base(info.FullMethod)
	md, _ := metadata.FromIncomingContext(ctx)
	w, err := s.authenticate(md)
	if err != nil {
		return nil, err
	}
	s.checkClientHeaders(w, method, md)
	if method != "AuthTokenGet" {
		tok := first(md, "x-modal-auth-token")
		s.mu.Lock()
		owner := s.authTokens[tok]
		s.mu.Unlock()
		if tok == "" || owner != w {
			w.violation("%s: missing or foreign x-modal-auth-token", method)
			return nil, status.Error(codes.Unauthenticated, "missing or invalid x-modal-auth-token")
		}
	}
	key := first(md, "x-idempotency-key")
	if key == "" {
		w.violation("%s: missing x-idempotency-key metadata", method)
	}
	return s.dispatch(context.WithValue(ctx, wsKey{}, w), w, method, key, req, handler)
}

// controlStream authenticates a streaming call. The SDK's stream
// interceptors send the token but neither the auth token nor an idempotency
// key, so neither is required here.
func (s *Server) controlStream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	method := path.Base(info.FullMethod)
	md, _ := metadata.FromIncomingContext(ss.Context())
	w, err := s.authenticate(md)
	if err != nil {
		return err
	}
	s.checkClientHeaders(w, method, md)
	return s.dispatchStream(w, method, srv, ss, handler)
}

// dispatch runs one unary call for w: count, apply a fault pending before
// acting (faults.go), replay or act, remember the answer under the
// idempotency key, maybe drop it.
func (s *Server) dispatch(ctx context.Context, w *Workspace, method, key string, req any, handler grpc.UnaryHandler) (any, error) {
	after, err := w.begin(ctx, method, key, true)
	if err != nil {
		return nil, err
	}
	var resp any
	if a, ok := w.replay(method, key); ok {
		resp, err = a.resp, a.err
	} else {
		resp, err = handler(ctx, req)
		if status.Code(err) == codes.Unimplemented {
			w.recordUnimplemented(method)
		}
		if m, ok := resp.(proto.Message); ok && err == nil {
			resp = proto.Clone(m)
		}
		w.remember(method, key, answer{resp: resp, err: err})
	}
	if after.drop {
		return nil, status.Errorf(codes.Unavailable, "modalfake: answer to %s dropped", method)
	}
	if after.hold > 0 {
		if err := waitOrEnd(ctx, after.hold); err != nil {
			return nil, err
		}
	}
	return resp, err
}

func (s *Server) dispatchStream(w *Workspace, method string, srv any, ss grpc.ServerStream, handler grpc.StreamHandler) error {
	// A stream's answer is never dropped (the SDK retries no stream by
	// idempotency key): DropAnswer is left for the next unary call, and a
	// DropAnswer step lets the stream through.
	if _, err := w.begin(ss.Context(), method, "", false); err != nil {
		return err
	}
	err := handler(srv, &wsStream{ServerStream: ss, ctx: context.WithValue(ss.Context(), wsKey{}, w)})
	if status.Code(err) == codes.Unimplemented {
		w.recordUnimplemented(method)
	}
	return err
}

// wsStream carries the workspace in the stream's context.
type wsStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *wsStream) Context() context.Context { return s.ctx }

// routerAuth checks "authorization: Bearer <jwt>" against the JWTs minted
// by the command-router access RPCs.
func (s *Server) routerAuth(md metadata.MD) (grant, error) {
	h := first(md, "authorization")
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || tok == "" {
		return grant{}, status.Error(codes.Unauthenticated, "missing bearer token")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.grants[tok]
	if !ok {
		return grant{}, status.Error(codes.Unauthenticated, "invalid bearer token")
	}
	return g, nil
}

func (s *Server) routerUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	method := path.Base(info.FullMethod)
	md, _ := metadata.FromIncomingContext(ctx)
	g, err := s.routerAuth(md)
	if err != nil {
		return nil, err
	}
	if r, ok := req.(interface{ GetTaskId() string }); ok && r.GetTaskId() != g.taskID {
		g.ws.violation("%s: task %q with a JWT for task %q", method, r.GetTaskId(), g.taskID)
		return nil, status.Errorf(codes.PermissionDenied, "token does not grant access to task %s", r.GetTaskId())
	}
	// The router client sends no idempotency key: its snapshot RPCs carry
	// their own (snapshot_id, idempotency_key).
	return s.dispatch(context.WithValue(ctx, wsKey{}, g.ws), g.ws, method, "", req, handler)
}

func (s *Server) routerStream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	method := path.Base(info.FullMethod)
	md, _ := metadata.FromIncomingContext(ss.Context())
	g, err := s.routerAuth(md)
	if err != nil {
		return err
	}
	// A stream's request arrives inside the handler, which checks its task
	// against the one the JWT grants.
	ss = &wsStream{ServerStream: ss, ctx: context.WithValue(ss.Context(), taskKey{}, g.taskID)}
	return s.dispatchStream(g.ws, method, srv, ss, handler)
}

// control implements modal.client.ModalClient; every RPC not written in this
// package falls through to the embedded UNIMPLEMENTED answers.
type control struct {
	pb.UnimplementedModalClientServer
	s *Server
}

// router implements TaskCommandRouter likewise.
type router struct {
	pb.UnimplementedTaskCommandRouterServer
	s *Server
}

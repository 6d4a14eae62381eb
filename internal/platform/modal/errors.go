package modal

import (
	"context"
	"errors"
	"fmt"
	"strings"

	modal "github.com/modal-labs/modal-client/go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// errMissingCredentials replaces the SDK's "missing credentials" error,
// which speaks of its own API, with what a provider user can set.
var errMissingCredentials = errors.New("no Modal credentials: set token_id and token_secret in the modal block, " +
	"or the MODAL_TOKEN_ID and MODAL_TOKEN_SECRET environment variables, or a profile in ~/.modal.toml " +
	"(`modal token new` writes one; MODAL_PROFILE picks another profile, MODAL_CONFIG_PATH another file)")

// isNotFound reports whether the SDK or Modal's server says the object
// does not exist: the SDK turns most NOT_FOUND answers into its
// NotFoundError, but not every call does (SandboxWait, tags).
func isNotFound(err error) bool {
	var nf modal.NotFoundError
	return errors.As(err, &nf) || grpcCode(err) == codes.NotFound
}

// isAlreadyExists reports whether Modal says the name is taken.
func isAlreadyExists(err error) bool {
	var ae modal.AlreadyExistsError
	return errors.As(err, &ae) || grpcCode(err) == codes.AlreadyExists
}

// grpcCode is the gRPC code of err, or OK when it carries none (an SDK
// error, a context error).
func grpcCode(err error) codes.Code {
	var withStatus interface{ GRPCStatus() *status.Status }
	if errors.As(err, &withStatus) {
		return withStatus.GRPCStatus().Code()
	}
	return codes.OK
}

// mayHaveApplied reports whether a failed call may still have been done
// by Modal: its answer was lost or it timed out on the way (the codes the
// SDK retries, after its retries ran out), not refused.
func mayHaveApplied(err error) bool {
	if errors.Is(err, context.Canceled) {
		return false
	}
	switch grpcCode(err) {
	case codes.Unavailable, codes.DeadlineExceeded, codes.Internal, codes.Unknown:
		return true
	}
	return false
}

// translate turns an SDK error into the provider's words: Modal's message
// kept, the gRPC plumbing dropped, missing credentials said plainly. Its
// callers map not-found and name conflicts to the typed errors first.
func translate(err error) error {
	if err == nil {
		return nil
	}
	if strings.Contains(err.Error(), "missing credentials") {
		return errMissingCredentials
	}
	var withStatus interface{ GRPCStatus() *status.Status }
	if errors.As(err, &withStatus) {
		st := withStatus.GRPCStatus()
		msg := st.Message()
		// A call cut by its deadline (the operation's timeout) is
		// DEADLINE_EXCEEDED, but grpc-go's message is "context deadline
		// exceeded" only when the client's timer wins: when the server's
		// reset of the stream arrives first it is "stream terminated by
		// RST_STREAM with error code: CANCEL", which does not tell the user
		// the timeout passed. The fault matrix's held snapshot saw both.
		if st.Code() == codes.DeadlineExceeded && !strings.Contains(msg, context.DeadlineExceeded.Error()) {
			msg = context.DeadlineExceeded.Error() + ": " + msg
		}
		return &modalError{code: st.Code(), msg: msg, err: err}
	}
	return err
}

// modalError is a gRPC error from Modal's server, said as Modal's message
// and its code; it unwraps to the SDK's error.
type modalError struct {
	code codes.Code
	msg  string
	err  error
}

func (e *modalError) Error() string { return fmt.Sprintf("%s (Modal: %s)", e.msg, e.code) }

func (e *modalError) Unwrap() error { return e.err }

// notFoundOr returns a NotFoundError for the object when err says it is
// missing, else err translated.
func notFoundOr(err error, kind, id string) error {
	if isNotFound(err) {
		return &platform.NotFoundError{Kind: kind, ID: id}
	}
	return translate(err)
}

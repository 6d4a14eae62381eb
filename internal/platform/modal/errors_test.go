package modal

import (
	"errors"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// translate keeps Modal's message and code, and says a deadline passed
// whatever words grpc-go found for it.
func TestTranslate(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"message kept", status.Error(codes.NotFound, "Volume 'x' not found"), "Volume 'x' not found (Modal: NotFound)"},
		{"deadline by the client's timer", status.Error(codes.DeadlineExceeded, "context deadline exceeded"),
			"context deadline exceeded (Modal: DeadlineExceeded)"},
		{"deadline by the server's reset", status.Error(codes.DeadlineExceeded, "stream terminated by RST_STREAM with error code: CANCEL"),
			"context deadline exceeded: stream terminated by RST_STREAM with error code: CANCEL (Modal: DeadlineExceeded)"},
		{"not gRPC", errors.New("plain"), "plain"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := translate(tc.err)
			if got.Error() != tc.want {
				t.Errorf("translate = %q, want %q", got.Error(), tc.want)
			}
			if !errors.Is(got, tc.err) {
				t.Errorf("translate(%v) does not unwrap to it", tc.err)
			}
		})
	}
}

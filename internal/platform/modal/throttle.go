package modal

import (
	"context"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// defaultThrottleWait is how long a throttled call waits when Modal's
// answer names no delay.
const defaultThrottleWait = time.Second

// throttleDelay is the wait Modal asks for before a call it throttled is
// sent again (RESOURCE_EXHAUSTED, with an RPCRetryPolicy detail), and
// whether err is such a throttling. A throttled call did nothing, so
// sending it again cannot make a second object.
func throttleDelay(err error) (time.Duration, bool) {
	st, ok := status.FromError(err)
	if !ok || st.Code() != codes.ResourceExhausted {
		return 0, false
	}
	for _, d := range st.Details() {
		if p, ok := d.(*pb.RPCRetryPolicy); ok && p.GetRetryAfterSecs() > 0 {
			return time.Duration(float64(p.GetRetryAfterSecs()) * float64(time.Second)), true
		}
	}
	return defaultThrottleWait, true
}

// retryThrottled runs call until Modal stops throttling it, waiting what
// Modal asks each time, within maxWait (nil: no cap) and ctx. The SDK does
// this for its control-plane calls but not for the task command router's
// (snapshots), where a throttled snapshot would otherwise fail the apply.
func retryThrottled(ctx context.Context, sleep func(context.Context, time.Duration) error, maxWait *time.Duration, call func() error) error {
	var waited time.Duration
	for {
		err := call()
		delay, throttled := throttleDelay(err)
		if !throttled || maxWait != nil && waited+delay > *maxWait {
			return err
		}
		if serr := sleep(ctx, delay); serr != nil {
			return err
		}
		waited += delay
	}
}

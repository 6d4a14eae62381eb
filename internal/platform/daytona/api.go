package daytona

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/lostcreate"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// do sends one request and decodes the answer into out (nil: no body).
func (p *Platform) do(ctx context.Context, method, path string, query url.Values, body, out any) (*rest.Response, error) {
	return p.api.Do(ctx, rest.Request{Method: method, Path: path, Query: query, Body: body, Header: p.header.Clone()}, out)
}

// pathID escapes an id or name for use in a path.
func pathID(id string) string { return url.PathEscape(id) }

// findLost looks for the object of a create whose answer was lost, with
// lostcreate.Find's backoff, waiting through the lookup sleep. Daytona
// describes its sandbox list as eventually consistent, so one lookup that
// finds nothing proves little.
func (p *Platform) findLost(ctx context.Context, find func(context.Context) (bool, error)) (bool, time.Duration, error) {
	return lostcreate.Find(ctx, p.lookupSleep, find)
}

// maxCreateSends bounds how often one create is sent: once, and once more
// when the answer of the first was lost and the lookups did not find what
// it made. Every create names its object, and Daytona keeps names unique
// in an organisation, so a second send whose first made the object after
// all is refused as a taken name, and the object is found by it: never
// two objects.
const maxCreateSends = 2

// lostCreate fails a create whose answer was lost and whose object the
// lookups did not find; it is not sent again.
func lostCreate(what string, err error, waited time.Duration, lookup error, find string) error {
	return &lostcreate.Error{What: what, Err: err, Waited: waited, Lookup: lookup, Find: find,
		NotListed: fmt.Sprintf("After looking for it for %s, Daytona still does not list it.", waited)}
}

// waitFor reads an object with read until done says it settled, sleeping
// the poll interval between reads, bounded by ctx.
func waitFor[T any](ctx context.Context, p *Platform, read func(context.Context) (T, error), done func(T) (bool, error)) (T, error) {
	for {
		v, err := read(ctx)
		if err != nil {
			return v, err
		}
		ok, err := done(v)
		if ok || err != nil {
			return v, err
		}
		if err := p.sleep(ctx, p.poll); err != nil {
			return v, err
		}
	}
}

// waitGone reads an object until read says it is not found (a delete is
// accepted at once and carried out by the server's jobs), bounded by ctx.
func (p *Platform) waitGone(ctx context.Context, read func(context.Context) error) error {
	for {
		err := read(ctx)
		if platform.IsNotFound(err) || rest.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := p.sleep(ctx, p.poll); err != nil {
			return fmt.Errorf("waiting for the delete to finish: %w", err)
		}
	}
}

// gb turns MiB into Daytona's GB (whole GiB; the table's Step makes them
// whole), rounding up.
func gb(mib int64) int64 { return (mib + 1023) / 1024 }

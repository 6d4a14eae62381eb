package daytona

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// do sends one request and decodes the answer into out (nil: no body).
func (p *Platform) do(ctx context.Context, method, path string, query url.Values, body, out any) (*rest.Response, error) {
	return p.api.Do(ctx, rest.Request{Method: method, Path: path, Query: query, Body: body, Header: p.header.Clone()}, out)
}

// notFound turns an API 404 into the platform's typed not-found error.
func notFound(err error, kind, id string) error {
	if rest.IsNotFound(err) {
		return &platform.NotFoundError{Kind: kind, ID: id}
	}
	return err
}

// pathID escapes an id or name for use in a path.
func pathID(id string) string { return url.PathEscape(id) }

// The lookups for the object of a create whose answer was lost. Daytona
// describes its sandbox list as eventually consistent, so one lookup that
// finds nothing proves little: the object is looked for at once and again
// after waits of 1, 2, 4 and 5 s, 12 s in all, before the create is given
// up as unknown. Nothing is ever created a second time.
const (
	lostCreateFirstWait = time.Second
	lostCreateBound     = 12 * time.Second
)

// findLost looks for the object a create whose answer was lost may have
// made, with backoff, until find reports it or lostCreateBound has been
// waited out. It returns whether find found it, how long it waited, and
// what stopped it early.
func (p *Platform) findLost(ctx context.Context, find func(context.Context) (bool, error)) (bool, time.Duration, error) {
	var waited time.Duration
	wait := lostCreateFirstWait
	for {
		found, err := find(ctx)
		if err != nil || found {
			return found, waited, err
		}
		if waited >= lostCreateBound {
			return false, waited, nil
		}
		d := min(wait, lostCreateBound-waited)
		if err := p.lookupSleep(ctx, d); err != nil {
			return false, waited, err
		}
		waited += d
		wait *= 2
	}
}

// maxCreateSends bounds how often one create is sent: once, and once more
// when the answer of the first was lost and the lookups did not find what
// it made. Every create names its object, and Daytona keeps names unique
// in an organisation, so a second send whose first made the object after
// all is refused as a taken name, and the object is found by it: never
// two objects.
const maxCreateSends = 2

// lostCreateError fails a create whose answer was lost when the object it
// may have made was not found: the create is not sent again, and the
// message says how to find the first. It wraps the create's error, so
// errors.Is(err, rest.ErrMaybeApplied) holds.
type lostCreateError struct {
	what   string
	err    error
	waited time.Duration
	lookup error
	find   string
}

func (e *lostCreateError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "creating the %s: the answer was lost, so the %s may have been made (%v). ", e.what, e.what, e.err)
	if e.lookup != nil {
		fmt.Fprintf(&b, "Looking for it stopped after %s: %v. ", e.waited, e.lookup)
	} else {
		fmt.Fprintf(&b, "After looking for it for %s, Daytona still does not list it. ", e.waited)
	}
	b.WriteString("The create was not sent again, so that it cannot make a second one. ")
	b.WriteString(e.find)
	return b.String()
}

func (e *lostCreateError) Unwrap() []error {
	if e.lookup == nil {
		return []error{e.err}
	}
	return []error{e.err, e.lookup}
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

// orphansCommand is the orphans command for an owner.
func orphansCommand(owner string) string {
	if owner != "" {
		return fmt.Sprintf("terraform state pull | terraform-provider-sbx orphans --owner %q -", owner)
	}
	return "terraform state pull | terraform-provider-sbx orphans -"
}

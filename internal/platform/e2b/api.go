package e2b

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// Labels the E2B platform keeps in sandbox metadata besides the shared ones.
const (
	// labelFromSnapshot records the snapshot a box was restored from.
	labelFromSnapshot = platform.LabelPrefix + "from-snapshot"

	kindSandbox = "sandbox"
)

// pageLimit is the largest page E2B serves.
const pageLimit = "100"

// do sends one request and decodes the answer into out (nil: no body).
func (p *Platform) do(ctx context.Context, method, path string, query url.Values, body, out any) (*rest.Response, error) {
	return p.api.Do(ctx, rest.Request{Method: method, Path: path, Query: query, Body: body}, out)
}

// listAll reads every page of a list endpoint, following X-Next-Token.
func listAll[T any](ctx context.Context, p *Platform, path string, query url.Values) ([]T, error) {
	var all []T
	err := readPages(ctx, p, path, query, func(page []T) int {
		all = append(all, page...)
		return len(page)
	})
	if err != nil {
		return nil, err
	}
	return all, nil
}

// readPages GETs every page of a paginated endpoint, following X-Next-Token
// to the end. Each decoded page goes to add, which says how many items it
// held; an empty page ends the walk too, so a server that keeps handing out
// tokens cannot keep the client looping. Pages are bodies of any shape: a
// list, or an object carrying one page of a list (a template's builds).
func readPages[P any](ctx context.Context, p *Platform, path string, query url.Values, add func(page P) int) error {
	next := ""
	for {
		q := url.Values{}
		for k, v := range query {
			q[k] = append([]string(nil), v...)
		}
		q.Set("limit", pageLimit)
		if next != "" {
			q.Set("nextToken", next)
		}
		var page P
		resp, err := p.do(ctx, "GET", path, q, nil, &page)
		if err != nil {
			return err
		}
		n := add(page)
		next = ""
		if resp != nil {
			next = resp.Header.Get("X-Next-Token")
		}
		if next == "" || n == 0 {
			return nil
		}
	}
}

// notFound turns an API 404 into the platform's typed not-found error.
func notFound(err error, kind, id string) error {
	if rest.IsNotFound(err) {
		return &platform.NotFoundError{Kind: kind, ID: id}
	}
	return err
}

// pathID escapes an id for use in a path; snapshot ids hold '/' and ':'.
func pathID(id string) string { return url.PathEscape(id) }

// The lookups for the object of a create whose answer was lost. E2B's
// listings lag a create by a few seconds, so one lookup that finds nothing
// proves nothing: the object is looked for at once and again after waits of
// 1, 2, 4 and 5 s (each twice the last, the last cut to the bound), 12 s in
// all, before the create is given up as unknown.
const (
	lostCreateFirstWait = time.Second
	lostCreateBound     = 12 * time.Second
)

// findLost looks for the object a create whose answer was lost may have
// made, with backoff, until find reports it or lostCreateBound has been
// waited out. It returns whether find found it, how long it waited, and
// what stopped it early: a failed lookup, or ctx ending during a wait.
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

// lostCreateError fails a create whose answer was lost when the object it
// may have made was not found: the create is not sent again (that could
// make a second object), and the message says how to find the first. It
// wraps the create's error, so errors.Is(err, rest.ErrMaybeApplied) holds,
// and what stopped the lookups (e.g. context.Canceled).
type lostCreateError struct {
	what   string        // the object: "sandbox", `volume "data"`
	err    error         // the create request's failure
	waited time.Duration // how long the lookups went on
	lookup error         // what stopped the lookups early, if anything
	find   string        // how to find the object, and what to do then
}

func (e *lostCreateError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "creating the %s: the answer was lost, so the %s may have been made (%v). ", e.what, e.what, e.err)
	if e.lookup != nil {
		fmt.Fprintf(&b, "Looking for it stopped after %s: %v. ", e.waited, e.lookup)
	} else {
		fmt.Fprintf(&b, "E2B lists new objects only after a delay, and after looking for %s it is still not listed. ", e.waited)
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

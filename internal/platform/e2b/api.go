package e2b

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/lostcreate"
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

// pathID escapes an id for use in a path; snapshot ids hold '/' and ':'.
func pathID(id string) string { return url.PathEscape(id) }

// findLost looks for the object of a create whose answer was lost, with
// lostcreate.Find's backoff, waiting through the lookup sleep.
func (p *Platform) findLost(ctx context.Context, find func(context.Context) (bool, error)) (bool, time.Duration, error) {
	return lostcreate.Find(ctx, p.lookupSleep, find)
}

// lostCreate fails a create whose answer was lost and whose object the
// lookups did not find. E2B's listings lag a create by a few seconds, which
// is why the lookups may well have missed it.
func lostCreate(what string, err error, waited time.Duration, lookup error, find string) error {
	return &lostcreate.Error{What: what, Err: err, Waited: waited, Lookup: lookup, Find: find,
		NotListed: fmt.Sprintf("E2B lists new objects only after a delay, and after looking for %s it is still not listed.", waited)}
}

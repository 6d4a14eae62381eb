package e2b

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// Labels the E2B platform keeps in sandbox metadata besides the shared ones.
const (
	// labelCreateToken is unique per create call, so a create whose answer
	// was lost is found again by it and never made twice.
	labelCreateToken = platform.LabelPrefix + "create-token"
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
		var page []T
		resp, err := p.do(ctx, "GET", path, q, nil, &page)
		if err != nil {
			return nil, err
		}
		all = append(all, page...)
		next = ""
		if resp != nil {
			next = resp.Header.Get("X-Next-Token")
		}
		if next == "" || len(page) == 0 {
			return all, nil
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

// newToken returns a random per-create token.
func newToken() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	return hex.EncodeToString(b[:])
}

// pathID escapes an id for use in a path; snapshot ids hold '/' and ':'.
func pathID(id string) string { return url.PathEscape(id) }

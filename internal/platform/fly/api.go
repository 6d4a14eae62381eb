package fly

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// do sends one request and decodes the answer into out (nil: no body).
func (p *Platform) do(ctx context.Context, method, path string, query url.Values, body, out any) (*rest.Response, error) {
	return p.api.Do(ctx, rest.Request{Method: method, Path: path, Query: query, Body: body}, out)
}

// doRepeatable sends a request that has the same effect sent twice though
// its method is POST (a machine update sends the whole config: a second
// one sets the same config again), so a 5xx or a lost answer is retried
// like a PUT rather than reported as possibly applied.
func (p *Platform) doRepeatable(ctx context.Context, method, path string, body, out any) (*rest.Response, error) {
	repeatable := true
	return p.api.Do(ctx, rest.Request{Method: method, Path: path, Body: body, Idempotent: &repeatable}, out)
}

// appPath is the path of the app's collection kind ("machines", "volumes").
func (p *Platform) appPath(kind string) string { return "/apps/" + url.PathEscape(p.app) + "/" + kind }

// itemPath is the path of one machine or volume, with optional tail.
func (p *Platform) itemPath(kind, id string, tail ...string) string {
	s := p.appPath(kind) + "/" + url.PathEscape(id)
	for _, t := range tail {
		s += "/" + t
	}
	return s
}

// flyError is what Fly says in an error answer ({"error": ...}: the
// spec's ErrorResponse), or the error's text.
func flyError(err error) string {
	var api *rest.APIError
	if errors.As(err, &api) && api.Message != "" {
		if api.StatusCode >= http.StatusInternalServerError {
			// A server error says nothing of the request: keep its status.
			return fmt.Sprintf("%s (Fly answered HTTP %d)", api.Message, api.StatusCode)
		}
		return api.Message
	}
	return err.Error()
}

// ensureApp checks once that the app exists, and creates it in the
// configured org when it does not (POST /apps {app_name, org_slug}). The
// provider never deletes an app.
func (p *Platform) ensureApp(ctx context.Context) error {
	p.appMu.Lock()
	defer p.appMu.Unlock()
	if p.appReady {
		return nil
	}
	_, err := p.do(ctx, http.MethodGet, "/apps/"+url.PathEscape(p.app), nil, nil, nil)
	switch {
	case err == nil:
	case rest.IsNotFound(err) && p.org == "":
		return fmt.Errorf("fly app %q does not exist: create it (fly apps create %s) or set fly { org = ... } so that the provider creates it", p.app, p.app)
	case rest.IsNotFound(err):
		body := map[string]string{"app_name": p.app, "org_slug": p.org}
		if _, err := p.do(ctx, http.MethodPost, "/apps", nil, body, nil); err != nil && !rest.IsStatus(err, http.StatusUnprocessableEntity) {
			return fmt.Errorf("creating fly app %q in org %q: %w", p.app, p.org, err)
		}
	default:
		return fmt.Errorf("reading fly app %q: %w", p.app, err)
	}
	p.appReady = true
	return nil
}

// waitFor reads with read until done says it settled, sleeping the poll
// interval between reads, bounded by ctx.
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

// waitTimeout is the timeout of one GET .../wait, in seconds: fly-go
// (flaps/flaps_machines_wait.go) caps it at its proxy's 60 s. A 408 means
// not yet, and the wait is sent again while ctx lasts. The instance is
// named by the spec's instance_id (fly-go sends the same value as version).
const waitTimeout = 60

// waitMachine waits, with GET /apps/{app}/machines/{id}/wait?state=...,
// until the machine instance reaches state, bounded by ctx.
func (p *Platform) waitMachine(ctx context.Context, id, instanceID, state string) error {
	q := url.Values{"state": {state}, "timeout": {fmt.Sprint(waitTimeout)}}
	if instanceID != "" {
		q.Set("instance_id", instanceID)
	}
	for {
		_, err := p.do(ctx, http.MethodGet, p.itemPath("machines", id, "wait"), q, nil, nil)
		if err == nil {
			return nil
		}
		if !rest.IsStatus(err, http.StatusRequestTimeout) {
			return restplatform.NotFound(err, "sandbox", id)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("waiting for machine %s to be %s: %w", id, state, ctx.Err())
		}
		if err := p.sleep(ctx, time.Second); err != nil {
			return fmt.Errorf("waiting for machine %s to be %s: %w", id, state, err)
		}
	}
}

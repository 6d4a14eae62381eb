package fakeapi

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/getkin/kin-openapi/openapi3filter"
)

// ServeHTTP checks a request against the spec, plays the route's faults,
// hands it to the fake and checks the answer: a mismatch either way is a
// violation, a bad request a 400, an unknown route a 404, an operation the
// fake does not serve a 501.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	vreq := r.Clone(r.Context())
	if a.cfg.StripPrefix != "" {
		if p := strings.TrimPrefix(vreq.URL.Path, a.cfg.StripPrefix); strings.HasPrefix(p, "/") {
			vreq.URL.Path, vreq.URL.RawPath = p, ""
		}
	}
	vreq.Body = io.NopCloser(bytes.NewReader(body))
	route, rawParams, err := a.router.FindRoute(vreq)
	if err != nil {
		a.Violation("%s %s: no such operation in the %s spec (%v)", r.Method, r.URL.Path, a.cfg.Spec.Platform, err)
		a.WriteRaw(w, r, a.cfg.Error(http.StatusNotFound, a.cfg.NoRoute, r.Method, r.URL.Path))
		return
	}
	key := r.Method + " " + route.Path
	a.Count(key)

	opts := validationOptions()
	opts.AuthenticationFunc = a.cfg.Authenticate
	// Defaults stay out so handlers see what the client really sent.
	opts.SkipSettingDefaults = true
	input := &openapi3filter.RequestValidationInput{Request: vreq, PathParams: rawParams, Route: route, Options: opts}
	if rep, refused := a.checkRequest(r, input); refused {
		a.Send(w, r, input, rep)
		return
	}
	if a.cfg.Admit != nil {
		if rep, ok := a.cfg.Admit(r); !ok {
			a.Send(w, r, input, rep)
			return
		}
	}

	fault, faulted := a.TakeFault(key, RequestKey(r, body))
	if faulted && !a.BeforeHandling(w, r, input, key, fault) {
		return
	}
	now := a.cfg.Clock.Now()
	if a.cfg.Throttle != nil {
		if rep, limited := a.cfg.Throttle(key, now); limited {
			a.Send(w, r, input, rep)
			return
		}
	}
	rep, served := a.cfg.Handle(key, &Request{HTTP: r, Body: body, Params: unescape(rawParams), Now: now})
	if !served {
		a.Violation("%s %s: operation %q exists in the spec but the fake does not serve it", r.Method, r.URL.Path, key)
		a.Send(w, r, input, a.cfg.Error(http.StatusNotImplemented, "the %s fake does not serve %s", a.cfg.Spec.Platform, key))
		return
	}
	if faulted && !a.AfterHandling(w, r, fault) {
		return
	}
	a.Send(w, r, input, rep)
}

// checkRequest validates a request and says how to refuse it: a bad key is
// a 401, a mismatch a 400 and a violation, in the order Config.AuthFirst
// gives.
func (a *API) checkRequest(r *http.Request, input *openapi3filter.RequestValidationInput) (Reply, bool) {
	authFailed, problems := splitRequestErrors(openapi3filter.ValidateRequest(r.Context(), input))
	unauthorized := a.cfg.Error(http.StatusUnauthorized, "%s", a.cfg.Unauthorized)
	if authFailed && a.cfg.AuthFirst {
		return unauthorized, true
	}
	if len(problems) > 0 {
		a.Violation("%s %s: request does not match the spec: %s", r.Method, r.URL.RequestURI(), strings.Join(problems, "; "))
		return a.cfg.Error(http.StatusBadRequest, "request does not match the API spec: %s", strings.Join(problems, "; ")), true
	}
	if authFailed {
		return unauthorized, true
	}
	return Reply{}, false
}

// unescape decodes path parameters, keeping a value that does not decode.
func unescape(raw map[string]string) map[string]string {
	params := make(map[string]string, len(raw))
	for k, v := range raw {
		if u, err := url.PathUnescape(v); err == nil {
			v = u
		}
		params[k] = v
	}
	return params
}

package fakeapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
)

// validationOptions report every mismatch, each as "at <JSON pointer>:
// reason" rather than kin-openapi's default dump of the whole schema.
func validationOptions() *openapi3filter.Options {
	opts := &openapi3filter.Options{MultiError: true}
	opts.WithCustomSchemaErrorFunc(func(err *openapi3.SchemaError) string {
		return fmt.Sprintf("at /%s: %s", strings.Join(err.JSONPointer(), "/"), err.Reason)
	})
	return opts
}

// splitRequestErrors separates a failed key check (a 401, not a client bug
// against the spec) from real mismatches.
func splitRequestErrors(err error) (authFailed bool, problems []string) {
	if err == nil {
		return false, nil
	}
	var errs []error
	var me openapi3.MultiError
	if errors.As(err, &me) {
		errs = me
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		var sec *openapi3filter.SecurityRequirementsError
		if errors.As(e, &sec) {
			authFailed = true
			continue
		}
		problems = append(problems, strings.ReplaceAll(e.Error(), "\n", " "))
	}
	return authFailed, problems
}

// Send validates a reply against the operation's responses and writes it.
func (a *API) Send(w http.ResponseWriter, r *http.Request, input *openapi3filter.RequestValidationInput, rep Reply) {
	header, data := a.encode(r, rep)
	err := openapi3filter.ValidateResponse(r.Context(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: input,
		Status:                 rep.Status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(data)),
		Options:                validationOptions(),
	})
	if err != nil {
		a.Violation("%s %s: the fake's %d response does not match the spec: %s", r.Method, r.URL.RequestURI(), rep.Status, strings.ReplaceAll(err.Error(), "\n", " "))
	} else {
		a.mu.Lock()
		a.validated++
		a.mu.Unlock()
	}
	write(w, rep.Status, header, data)
}

// Violation records a request or response that does not match the spec and
// reports it through the test's Errorf.
func (a *API) Violation(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	a.mu.Lock()
	a.violations = append(a.violations, msg)
	a.mu.Unlock()
	a.t.Errorf("%s: spec violation: %s", a.cfg.Name, msg)
}

// SpecViolations lists every request or response that did not match the
// spec, in order.
func (a *API) SpecViolations() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.violations...)
}

// ValidatedResponses counts the responses that passed spec validation.
func (a *API) ValidatedResponses() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.validated
}

package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sbxhq/terraform-provider-sbx/internal/redact"
)

// ErrMaybeApplied marks a failure of a request that is not safe to repeat
// (POST, PATCH) after it may have reached the server: a 5xx or a connection
// lost mid-request. The object may exist; look it up before trying again.
var ErrMaybeApplied = errors.New("the request may have reached the server and taken effect; look the object up before trying again")

// maxErrorBody is how much of a non-JSON error body APIError keeps: enough for
// an HTML error page's headline, small enough for a diagnostic.
const maxErrorBody = 4 << 10

// APIError is a non-2xx response, with the platform's error body parsed.
type APIError struct {
	Method, Path string
	StatusCode   int
	// Code is the platform's machine-readable code when it sends one (E2B's
	// error_code or numeric code, NestJS's error name).
	Code string
	// Message is the platform's human-readable message.
	Message string
	// Body is the raw body, truncated to a few KB, kept when it is not a JSON
	// error the parser understood.
	Body string
}

// Error reads "POST /sandboxes: 400 Bad Request: <code>: <message>", leaving
// out parts that are empty or only repeat the status.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d %s", e.Method, e.Path, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Code != "" {
		b.WriteString(": " + e.Code)
	}
	switch {
	case e.Message != "":
		b.WriteString(": " + e.Message)
	case e.Body != "":
		b.WriteString(": " + oneLine(e.Body, 512))
	}
	return b.String()
}

// IsNotFound reports whether err is (or wraps) an APIError with status 404.
func IsNotFound(err error) bool { return IsStatus(err, http.StatusNotFound) }

// IsConflict reports whether err is (or wraps) an APIError with status 409.
func IsConflict(err error) bool { return IsStatus(err, http.StatusConflict) }

// IsStatus reports whether err is (or wraps) an APIError with the given status.
func IsStatus(err error, code int) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.StatusCode == code
}

// errorBody is the union of the error shapes the platforms send:
// E2B {code:int, message, error_code?}; Daytona/NestJS {statusCode, message
// (string or string[]), error}; Fly {error, status?}.
type errorBody struct {
	Code       json.RawMessage `json:"code"`
	ErrorCode  string          `json:"error_code"`
	StatusCode json.RawMessage `json:"statusCode"`
	Message    json.RawMessage `json:"message"`
	Error      json.RawMessage `json:"error"`
}

// newAPIError builds the APIError for a non-2xx response body. secrets are
// masked in every field, since servers sometimes echo a rejected key or the
// request they refused.
func newAPIError(method, path string, status int, body []byte, secrets *redact.Secrets) *APIError {
	e := &APIError{Method: method, Path: path, StatusCode: status}
	var eb errorBody
	if err := json.Unmarshal(bytes.TrimSpace(body), &eb); err == nil {
		e.Message = rawText(eb.Message)
		errText := rawText(eb.Error)
		switch {
		case eb.ErrorCode != "":
			e.Code = eb.ErrorCode
		case len(eb.Code) > 0:
			e.Code = rawText(eb.Code)
		}
		if e.Message == "" {
			// Fly: {"error": "..."} carries the message itself.
			e.Message = errText
		} else if e.Code == "" {
			// NestJS: "error" is the status name, e.g. "Not Found".
			e.Code = errText
		}
	}
	// A code that only repeats the status adds nothing to the message.
	if e.Code == strconv.Itoa(status) || strings.EqualFold(e.Code, http.StatusText(status)) {
		e.Code = ""
	}
	if e.Code == "" && e.Message == "" {
		e.Body = truncate(secrets.String(string(body)), maxErrorBody)
	}
	// After decoding too: a JSON string may spell a secret with escapes the
	// raw body did not show it with.
	e.Code = secrets.String(e.Code)
	e.Message = secrets.String(e.Message)
	e.Body = secrets.String(e.Body)
	return e
}

// rawText renders a JSON string, number or string array as text.
func rawText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var ss []string
	if json.Unmarshal(raw, &ss) == nil {
		return strings.Join(ss, "; ")
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return string(raw)
}

// truncate cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(truncated)"
}

// oneLine collapses whitespace so an HTML or multi-line body fits a diagnostic.
func oneLine(s string, n int) string {
	return truncate(strings.Join(strings.Fields(s), " "), n)
}

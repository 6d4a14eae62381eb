package fakeapi

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// Replies are encoded one way for every fake; Config chooses the JSON
// Content-Type and may complete a body from the request.
func TestEncode(t *testing.T) {
	stampPath := func(c *Config) {
		c.Complete = func(r *http.Request, body any) any {
			m, ok := body.(map[string]any)
			if !ok {
				return body
			}
			m["path"] = r.URL.Path
			return m
		}
	}
	cases := []struct {
		name        string
		change      func(*Config)
		reply       Reply
		contentType string
		data        string
		extra       string // a header of the reply that must be kept
	}{
		{"no body", nil, Reply{Status: http.StatusNoContent}, "", "", ""},
		{"JSON", nil, Reply{Status: http.StatusOK, Body: map[string]int{"a": 1}}, "application/json", `{"a":1}`, ""},
		{"JSON of the platform's type", func(c *Config) { c.JSONContentType = "application/json; charset=utf-8" }, Reply{Status: http.StatusOK, Body: []int{1}}, "application/json; charset=utf-8", `[1]`, ""},
		{"text", nil, Reply{Status: http.StatusOK, Text: "hi", Body: map[string]int{"ignored": 1}}, "text/plain; charset=utf-8", "hi", ""},
		{"headers kept", nil, Reply{Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"3"}}}, "", "", "Retry-After"},
		{"completed from the request", stampPath, Reply{Status: http.StatusNotFound, Body: map[string]any{"message": "m"}}, "application/json", `{"message":"m","path":"/items/x"}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			api := newMini(t, t, tc.change).api
			w := httptest.NewRecorder()
			api.WriteRaw(w, httptest.NewRequest("GET", "/items/x", nil), tc.reply)
			if w.Code != tc.reply.Status || w.Body.String() != tc.data || w.Header().Get("Content-Type") != tc.contentType {
				t.Fatalf("wrote %d %q (%q), want %d %q (%q)", w.Code, w.Body.String(), w.Header().Get("Content-Type"), tc.reply.Status, tc.data, tc.contentType)
			}
			if tc.extra != "" && w.Header().Get(tc.extra) != tc.reply.Header.Get(tc.extra) {
				t.Fatalf("%s = %q", tc.extra, w.Header().Get(tc.extra))
			}
		})
	}
}

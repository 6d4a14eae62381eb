package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Reply is an answer as a fake's handler gives it, captured so it can be
// validated before any byte reaches the client.
type Reply struct {
	Status int
	// Body is marshalled as JSON; nil sends no body.
	Body   any
	Header http.Header
	// Text, when set, is sent as text/plain instead of Body.
	Text string
}

// encode turns a reply into the header and bytes that go on the wire.
func (a *API) encode(r *http.Request, rep Reply) (http.Header, []byte) {
	header := http.Header{}
	for k, v := range rep.Header {
		header[k] = v
	}
	if rep.Text != "" {
		header.Set("Content-Type", "text/plain; charset=utf-8")
		return header, []byte(rep.Text)
	}
	if rep.Body == nil {
		return header, nil
	}
	body := rep.Body
	if a.cfg.Complete != nil {
		body = a.cfg.Complete(r, body)
	}
	data, err := json.Marshal(body)
	if err != nil {
		// Only the fake's own types are marshalled; a failure is a fake bug.
		panic(fmt.Sprintf("%s: marshal %T: %v", a.cfg.Name, body, err))
	}
	header.Set("Content-Type", a.cfg.JSONContentType)
	return header, data
}

// WriteRaw writes a reply without validating it: for answers outside the
// spec (an unknown route, the fake's own storage URLs).
func (a *API) WriteRaw(w http.ResponseWriter, r *http.Request, rep Reply) {
	header, data := a.encode(r, rep)
	write(w, rep.Status, header, data)
}

func write(w http.ResponseWriter, status int, header http.Header, data []byte) {
	for k, v := range header {
		w.Header()[k] = v
	}
	w.WriteHeader(status)
	if len(data) > 0 {
		_, _ = w.Write(data) // the client may have gone; nothing to do about it
	}
}

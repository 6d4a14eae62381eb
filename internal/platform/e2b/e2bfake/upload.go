package e2bfake

import (
	"io"
	"net/http"
	"strings"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// uploadPrefix is where the fake stores build-file tars. E2B answers
// GET /templates/{templateID}/files/{hash} with a signed storage URL outside
// the API (no X-API-Key, not in the spec); the fake points that URL back at
// itself so a client's upload lands in its state.
const uploadPrefix = "/_fake/uploads/"

// UploadRoute is the route template of the upload URL, for Inject and Requests
// (with the method: "PUT " + UploadRoute).
const UploadRoute = uploadPrefix + "{templateID}/{hash}"

func (s *Server) serveUpload(w http.ResponseWriter, r *http.Request) {
	key := r.Method + " " + UploadRoute
	s.api.Count(key)
	if r.Method != http.MethodPut && r.Method != http.MethodPost {
		s.api.Violation("%s %s: build files are uploaded with PUT or POST", r.Method, r.URL.Path)
		s.writeRaw(w, r, errorReply(http.StatusMethodNotAllowed, "upload with PUT or POST"))
		return
	}
	fault, faulted := s.api.TakeFault(key, fakeapi.RequestKey(r, nil)) // the URL names the file by its hash
	if faulted && !s.api.BeforeHandling(w, r, nil, key, fault) {
		return
	}
	templateID, hash, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, uploadPrefix), "/")
	data, err := io.ReadAll(r.Body)
	if !ok || hash == "" || err != nil {
		s.writeRaw(w, r, errorReply(http.StatusBadRequest, "bad upload"))
		return
	}
	if len(data) == 0 {
		s.api.Violation("%s %s: empty build-file upload", r.Method, r.URL.Path)
		s.writeRaw(w, r, errorReply(http.StatusBadRequest, "empty upload"))
		return
	}
	s.mu.Lock()
	t, found := s.templates[templateID]
	if found {
		// Storage keeps whatever bytes arrive: a layer that is no gzipped
		// tar, or lacks the step's files, fails the build that uses it.
		if t.layers == nil {
			t.layers, t.uploads = map[string][]byte{}, map[string]int{}
		}
		t.files[hash] = len(data)
		t.layers[hash] = data
		t.uploads[hash]++
	}
	s.mu.Unlock()
	if !found {
		s.writeRaw(w, r, errorReply(http.StatusNotFound, "template %q not found", templateID))
		return
	}
	if faulted && !s.api.AfterHandling(w, r, fault) {
		return
	}
	w.WriteHeader(http.StatusOK)
}

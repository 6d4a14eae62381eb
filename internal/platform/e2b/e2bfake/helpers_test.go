package e2bfake

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "e2b_test_key"

// fakeAPI is a plain net/http client for the fake, counting the answers it
// got so tests can check that every one of them passed validation.
type fakeAPI struct {
	t       *testing.T
	srv     *Server
	key     string
	hc      *http.Client
	mu      sync.Mutex
	answers int
}

func newFakeAPI(t *testing.T, srv *Server) *fakeAPI {
	return &fakeAPI{t: t, srv: srv, key: testKey, hc: &http.Client{Timeout: 10 * time.Second}}
}

type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) decode(t *testing.T, into any) {
	t.Helper()
	if err := json.Unmarshal(a.body, into); err != nil {
		t.Fatalf("decode %s: %v", a.body, err)
	}
}

func (a *fakeAPI) send(method, path string, body any) (answer, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return answer{}, err
		}
		rd = bytes.NewReader(data)
	}
	url := path
	if !strings.HasPrefix(path, "http") {
		url = a.srv.URL() + path
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return answer{}, err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if a.key != "" {
		req.Header.Set("X-API-Key", a.key)
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, err
	}
	a.mu.Lock()
	a.answers++
	a.mu.Unlock()
	return answer{status: resp.StatusCode, header: resp.Header, body: data}, nil
}

// must sends a request and fails the test unless the status is want.
func (a *fakeAPI) must(want int, method, path string, body any) answer {
	a.t.Helper()
	ans, err := a.send(method, path, body)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	if ans.status != want {
		a.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, ans.status, want, ans.body)
	}
	return ans
}

// recordingTB stands in for the test's T where the fake is expected to report
// violations: it records Errorf calls instead of failing.
type recordingTB struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recordingTB) recorded() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errors...)
}

// readyTemplate creates a template and builds it to ready through the API.
func (a *fakeAPI) readyTemplate(name string) (templateID string) {
	a.t.Helper()
	var created templateRequestResponseV3
	a.must(http.StatusAccepted, "POST", "/v3/templates", map[string]any{"name": name, "cpuCount": 2, "memoryMB": 1024}).decode(a.t, &created)
	a.must(http.StatusAccepted, "POST", "/v2/templates/"+created.TemplateID+"/builds/"+created.BuildID, map[string]any{"fromImage": "ubuntu:24.04"})
	for i := 0; i < 10; i++ {
		var info templateBuildInfo
		a.must(http.StatusOK, "GET", "/templates/"+created.TemplateID+"/builds/"+created.BuildID+"/status", nil).decode(a.t, &info)
		if info.Status == buildReady {
			return created.TemplateID
		}
	}
	a.t.Fatalf("template %s never became ready", name)
	return ""
}

// checkClean asserts that the fake saw no violation and that every answer the
// client received had passed response validation.
func (a *fakeAPI) checkClean() {
	a.t.Helper()
	if v := a.srv.SpecViolations(); len(v) != 0 {
		a.t.Errorf("spec violations: %q", v)
	}
	a.mu.Lock()
	answers := a.answers
	a.mu.Unlock()
	if got := a.srv.ValidatedResponses(); got != answers {
		a.t.Errorf("validated responses = %d, client got %d answers", got, answers)
	}
	if answers == 0 {
		a.t.Error("no answers at all")
	}
}

// upload PUTs a tar to the fake's storage URL; that URL is outside the API
// spec, so its answer is not counted among validated ones.
func (a *fakeAPI) upload(url string, data []byte) int {
	a.t.Helper()
	req, err := http.NewRequest(http.MethodPut, url, bytes.NewReader(data))
	if err != nil {
		a.t.Fatal(err)
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		a.t.Fatalf("upload: %v", err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// gzipTar is a gzipped tar of files (path → content), as E2B's SDKs upload
// a COPY step's layer.
func gzipTar(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		body := files[name]
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

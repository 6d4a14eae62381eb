package e2bfake

import (
	"archive/tar"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"
)

// buildWithLayer uploads layer under a files hash and builds steps that
// use it, returning the build's final status info.
func buildWithLayer(t *testing.T, api *fakeAPI, name string, layer []byte, hash string, steps []map[string]any) templateBuildInfo {
	t.Helper()
	if hash == "" {
		hash = testHash
		for _, st := range steps {
			args, isArgs := st["args"].([]string)
			if entries, err := unpackLayer(layer); st["type"] == "COPY" && isArgs && err == nil {
				if sum, ok := sdkFilesHash(args[0], args[1], entries); ok {
					hash = sum
				}
			}
		}
	}
	var created templateRequestResponseV3
	api.must(http.StatusAccepted, "POST", "/v3/templates", map[string]any{"name": name}).decode(t, &created)
	if layer != nil {
		var link buildFileUpload
		api.must(http.StatusCreated, "GET", "/templates/"+created.TemplateID+"/files/"+hash, nil).decode(t, &link)
		if st := api.upload(link.URL, layer); st != http.StatusOK {
			t.Fatalf("upload status %d", st)
		}
	}
	for _, st := range steps {
		if st["type"] == "COPY" {
			st["filesHash"] = hash
		}
	}
	api.must(http.StatusAccepted, "POST", "/v2/templates/"+created.TemplateID+"/builds/"+created.BuildID,
		map[string]any{"fromImage": "alpine", "steps": steps})
	var info templateBuildInfo
	for range 5 {
		api.must(http.StatusOK, "GET", "/templates/"+created.TemplateID+"/builds/"+created.BuildID+"/status", nil).decode(t, &info)
		if info.Status != buildBuilding {
			break
		}
	}
	return info
}

// testHash is a well-formed files hash of no files in particular.
const testHash = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func plainTar(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		_, _ = tw.Write([]byte(body))
	}
	_ = tw.Close()
	return buf.Bytes()
}

// The builder unpacks each COPY layer with `tar -xz` and copies the step's
// source out of it: a plain tar, a layer without the source, or (stricter
// than E2B) one holding files the step does not copy fails the build at
// that step; RUN false fails as a failing command does.
func TestFakeBuildStepsAsTheBuilder(t *testing.T) {
	copyApp := func() []map[string]any {
		return []map[string]any{{"type": "RUN", "args": []string{"true"}}, {"type": "COPY", "args": []string{"app", "/app"}}}
	}
	tests := []struct {
		name     string
		layer    []byte
		hash     string // "" = the SDKs' hash of the layer
		steps    []map[string]any
		wantStep string
		want     string // "" = ready
	}{
		{name: "the step's files, gzipped", layer: gzipTar(t, map[string]string{"app/main.py": "x"}), steps: copyApp()},
		{name: "a plain tar", layer: plainTar(t, map[string]string{"app/main.py": "x"}), steps: copyApp(),
			wantStep: "2", want: "failed to extract files: the layer is not gzip-compressed"},
		{name: "the source missing", layer: gzipTar(t, map[string]string{"lib/x.py": "x"}), steps: copyApp(),
			wantStep: "2", want: "source path does not exist: app"},
		{name: "the whole context", layer: gzipTar(t, map[string]string{"app/main.py": "x", "Dockerfile": "FROM alpine"}), steps: copyApp(),
			wantStep: "2", want: "holds Dockerfile, which the step does not copy"},
		{name: "a hash not of the step's files", layer: gzipTar(t, map[string]string{"app/main.py": "x"}), hash: testHash, steps: copyApp(),
			wantStep: "2", want: "the step's hash must be the SDKs' hash of the files it copies"},
		{name: "never uploaded", steps: copyApp(), wantStep: "2", want: "were never uploaded"},
		{name: "RUN false", steps: []map[string]any{{"type": "RUN", "args": []string{"false"}}}, wantStep: "1",
			want: "failed to run command 'false': exit status 1"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t, Options{APIKey: testKey})
			api := newFakeAPI(t, srv)
			info := buildWithLayer(t, api, "tpl"+strings.Repeat("x", i), tt.layer, tt.hash, tt.steps)
			switch {
			case tt.want == "":
				if info.Status != buildReady {
					t.Fatalf("status %s (%+v), want ready", info.Status, info.Reason)
				}
			case info.Status != buildError || info.Reason == nil || !strings.Contains(info.Reason.Message, tt.want) || info.Reason.Step != tt.wantStep:
				t.Fatalf("status %s, reason %+v; want error at step %s saying %q", info.Status, info.Reason, tt.wantStep, tt.want)
			}
			api.checkClean()
		})
	}
}

// The fake's check of a layer's hash is the SDKs' formula.
func TestSDKFilesHash(t *testing.T) {
	entries, err := unpackLayer(gzipTar(t, map[string]string{"cfg/b.txt": "there", "cfg/a.txt": "hi"}))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := sdkFilesHash("cfg/*.txt", "/etc/", entries)
	sum := sha256.Sum256([]byte("COPY cfg/*.txt /etc/" + "cfg/a.txt" + "33188" + "2" + "hi" + "cfg/b.txt" + "33188" + "5" + "there"))
	if want := hex.EncodeToString(sum[:]); !ok || got != want {
		t.Errorf("sdkFilesHash = %s, %v; want %s", got, ok, want)
	}
}

// GET and DELETE /templates/{templateID} of an unknown template answer 404
// with E2B's own bodies (the spec lists no 404 for them).
func TestFakeTemplateNotFoundBodies(t *testing.T) {
	srv := New(t, Options{APIKey: testKey})
	api := newFakeAPI(t, srv)
	get := api.must(http.StatusNotFound, "GET", "/templates/nope123", nil)
	if string(get.body) != `{"code":404,"message":"Template nope123 not found"}` {
		t.Errorf("GET body = %s", get.body)
	}
	del := api.must(http.StatusNotFound, "DELETE", "/templates/nope123", nil)
	if string(del.body) != `{"code":404,"message":"template 'nope123' not found"}` {
		t.Errorf("DELETE body = %s", del.body)
	}
	id := api.readyTemplate("present")
	api.must(http.StatusBadRequest, "GET", "/templates/"+id+"/files/not-a-hash", nil)
	api.checkClean()
}

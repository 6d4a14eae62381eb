package docker

import (
	"net/http"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/image"
)

// A build the engine breaks by losing an image it had just made (another
// client removing images at that moment) is run again; a build that fails
// on its own Dockerfile or context is not, and neither is one that keeps
// losing images past buildAttempts.
func TestBuildImageRetriesALostImage(t *testing.T) {
	const ref = "sbx/web:latest"
	lost := `{"stream":"Step 1/2 : FROM scratch\n"}` + "\n" +
		`{"stream":" ---> \n"}` + "\n" +
		`{"stream":"Step 2/2 : COPY agent /agent\n"}` + "\n" +
		`{"errorDetail":{"message":"unable to find image \"sha256:ee9e3d09f4252680fc1b70f498b2959cd0ef15ed187f0efc722451153b1732e5\""},` +
		`"error":"unable to find image \"sha256:ee9e3d09f4252680fc1b70f498b2959cd0ef15ed187f0efc722451153b1732e5\""}` + "\n"
	unknownParent := `{"errorDetail":{"message":"unknown parent image ID sha256:0123456789abcdef"},"error":"unknown parent image ID sha256:0123456789abcdef"}` + "\n"
	badContext := `{"stream":"Step 2/2 : COPY missing /x\n"}` + "\n" +
		`{"errorDetail":{"message":"COPY failed: file not found in build context"},"error":"COPY failed"}` + "\n"
	good := `{"stream":"Step 1/1 : FROM scratch\n"}` + "\n" + `{"aux":{"ID":"sha256:built"}}` + "\n" +
		`{"stream":"Successfully built built\n"}` + "\n"

	for _, tc := range []struct {
		name       string
		answers    []string // one build output per build call; the last repeats
		wantBuilds int
		wantErr    string // "" for success
	}{
		{name: "lost once, then built", answers: []string{lost, good}, wantBuilds: 2},
		{name: "unknown parent, then built", answers: []string{unknownParent, good}, wantBuilds: 2},
		{name: "lost on every attempt", answers: []string{lost}, wantBuilds: buildAttempts,
			wantErr: `building template "web" failed at Step 2/2 : COPY agent /agent: unable to find image`},
		{name: "the context's own fault is not retried", answers: []string{badContext}, wantBuilds: 1,
			wantErr: "COPY failed: file not found in build context"},
		{name: "built at once", answers: []string{good}, wantBuilds: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			builds := 0
			engine := &stubEngine{handlers: map[string]http.HandlerFunc{
				"POST /build": func(w http.ResponseWriter, r *http.Request) {
					if got := r.URL.Query().Get("t"); got != ref {
						t.Errorf("build tag %q, want %q", got, ref)
					}
					answer := tc.answers[min(builds, len(tc.answers)-1)]
					builds++
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte(answer))
				},
				"GET /images/" + ref + "/json": func(w http.ResponseWriter, _ *http.Request) {
					writeJSON(w, image.InspectResponse{ID: "sha256:built", RepoTags: []string{ref}})
				},
			}}
			id, err := buildImage(t.Context(), stubClient(t, engine), "web", ref, "FROM scratch\n", "", nil)
			if builds != tc.wantBuilds {
				t.Errorf("%d builds, want %d", builds, tc.wantBuilds)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("build failed: %v", err)
			case tc.wantErr == "" && id != "sha256:built":
				t.Errorf("image %q, want sha256:built", id)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}

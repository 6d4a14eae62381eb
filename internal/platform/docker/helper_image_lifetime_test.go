package docker

import (
	"context"
	"net/http"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/volume"
)

// A volume's delete removes the helper image, unforced, once no volume the
// provider made is left, and only then: a full destroy leaves nothing of
// the provider's behind.
func TestVolumeDeleteRemovesHelperImageWithTheLastVolume(t *testing.T) {
	helperDelete := "DELETE /images/" + helperImageRef
	for _, tc := range []struct {
		name      string
		gone      bool // the volume was already gone
		left      []*volume.Volume
		wantCalls []string
	}{
		{name: "the last volume", wantCalls: []string{"DELETE /volumes/data", "GET /volumes", helperDelete}},
		{name: "other volumes left", left: []*volume.Volume{{Name: "other"}}, wantCalls: []string{"DELETE /volumes/data", "GET /volumes"}},
		{name: "already gone", gone: true, wantCalls: []string{"DELETE /volumes/data"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var forced atomic.Bool
			e := &stubEngine{handlers: map[string]http.HandlerFunc{
				"GET /volumes": func(w http.ResponseWriter, r *http.Request) {
					if got := r.URL.Query().Get("filters"); got == "" {
						t.Errorf("the volume list has no filter; want the provider's managed label")
					}
					writeJSON(w, volume.ListResponse{Volumes: tc.left})
				},
				helperDelete: func(w http.ResponseWriter, r *http.Request) {
					forced.Store(isTrue(r.URL.Query().Get("force")))
					writeJSON(w, []image.DeleteResponse{{Deleted: "sha256:helper"}})
				},
			}}
			if !tc.gone {
				e.handlers["DELETE /volumes/data"] = func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }
			}
			if err := (&volumes{api: stubClient(t, e)}).Delete(t.Context(), "data"); err != nil {
				t.Fatal(err)
			}
			if got := e.recorded(); !reflect.DeepEqual(got, tc.wantCalls) {
				t.Errorf("engine calls %v, want %v", got, tc.wantCalls)
			}
			if forced.Load() {
				t.Error("the helper image was removed by force; the engine must be left to refuse while a helper container uses it")
			}
		})
	}
}

// An operation whose helper image another process removed after this one
// found it loads it again and makes its container, once fn has not run.
func TestHelperImageLoadedAgainWhenRemovedBeforeTheCreate(t *testing.T) {
	var creates atomic.Int32
	e := &stubEngine{handlers: map[string]http.HandlerFunc{
		"GET /images/" + helperImageRef + "/json": func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, image.InspectResponse{ID: "sha256:helper"})
		},
		"POST /containers/create": func(w http.ResponseWriter, _ *http.Request) {
			if creates.Add(1) == 1 { // removed between the inspect and this create
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				_, _ = w.Write([]byte(`{"message":"No such image: ` + helperImageRef + `"}`))
				return
			}
			w.WriteHeader(http.StatusCreated)
			writeJSON(w, container.CreateResponse{ID: "helper-1"})
		},
		"DELETE /containers/helper-1": func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) },
	}}
	ran := 0
	err := withVolumeHelper(context.Background(), stubClient(t, e), "data", nil, func(id string) error {
		ran++
		if id != "helper-1" {
			t.Errorf("fn got container %q, want helper-1", id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if ran != 1 || creates.Load() != 2 {
		t.Errorf("fn ran %d times after %d creates; want once, after 2", ran, creates.Load())
	}
	if n := e.count("GET /images/" + helperImageRef + "/json"); n != 2 {
		t.Errorf("the helper image was looked up %d times, want 2 (once per attempt)", n)
	}
}

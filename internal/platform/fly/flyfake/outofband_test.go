package flyfake

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

func TestOutOfBand(t *testing.T) {
	cases := []struct {
		name      string
		change    func(e *env, machineID, volumeID string)
		state     string
		volumeGet int
	}{
		{"stop", func(e *env, id, _ string) { e.s.StopOutOfBand(id) }, StateStopped, http.StatusOK},
		{"suspend", func(e *env, id, _ string) { e.s.SuspendOutOfBand(id) }, StateSuspended, http.StatusOK},
		{"destroy the machine", func(e *env, id, _ string) { e.s.DestroyMachineOutOfBand(id) }, "", http.StatusOK},
		{"destroy the volume", func(e *env, _, vol string) { e.s.DestroyVolumeOutOfBand(vol) }, StateStarted, http.StatusOK},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			vol := as[string](t, e.createVolume(map[string]any{"name": "data"})["id"])
			id := e.started(map[string]any{"config": testConfig(map[string]any{"mounts": []any{map[string]any{"volume": vol, "path": "/d"}}})})
			tc.change(e, id, vol)
			r := e.do("GET", machines+"/"+id, nil)
			if tc.state == "" {
				if r.status != http.StatusNotFound {
					t.Fatalf("destroyed machine: %d %s", r.status, r.raw)
				}
				if v, _ := e.s.Volume(vol); v.AttachedMachineID != "" {
					t.Fatal("volume still attached")
				}
				return
			}
			if got := r.obj(t)["state"]; got != tc.state {
				t.Fatalf("state %v, want %s", got, tc.state)
			}
			if got := e.do("GET", volumes+"/"+vol, nil).status; got != tc.volumeGet {
				t.Fatalf("volume GET %d", got)
			}
		})
	}
}

func TestSpecPath(t *testing.T) {
	t.Setenv("SBX_SPECS_DIR", "/specs/here")
	if got := SpecPath(); got != "/specs/here/"+SpecFile {
		t.Fatalf("SpecPath() = %s", got)
	}
	t.Setenv("SBX_SPECS_DIR", "")
	if _, err := os.Stat(SpecPath()); err != nil {
		t.Fatalf("SpecPath() = %s: %v", SpecPath(), err)
	}
	if _, err := os.Stat(filepath.Join("testdata", SpecFile)); err != nil {
		t.Fatal(err)
	}
}

package docker

import (
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestParseCommand(t *testing.T) {
	tests := []struct {
		in      string
		want    []string
		wantErr string
	}{
		{in: "", want: nil},
		{in: "   ", want: nil},
		{in: "/agent", want: []string{"/agent"}},
		{in: "  /agent cat   /tmp/ready ", want: []string{"/agent", "cat", "/tmp/ready"}},
		{in: `["/agent","cat","/a b"]`, want: []string{"/agent", "cat", "/a b"}},
		{in: `[ "/agent" ]`, want: []string{"/agent"}},
		{in: `["/agent",`, wantErr: "not a JSON array of strings"},
		{in: `[1, 2]`, wantErr: "not a JSON array of strings"},
		{in: `[]`, wantErr: "names no program"},
		{in: `[""]`, wantErr: "names no program"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := parseCommand(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseCommand(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNormalizeStatus(t *testing.T) {
	tests := []struct {
		state *container.State
		want  platform.SandboxState
	}{
		{&container.State{Status: "created"}, platform.StateStopped},
		{&container.State{Status: "running", Running: true}, platform.StateRunning},
		{&container.State{Status: "running", Running: true, Paused: true}, platform.StatePaused},
		{&container.State{Status: "paused", Running: true, Paused: true}, platform.StatePaused},
		{&container.State{Status: "exited"}, platform.StateStopped},
		{&container.State{Status: "restarting"}, platform.StateStarting},
		{&container.State{Status: "removing"}, platform.StateStopping},
		{&container.State{Status: "dead"}, platform.StateFailed},
		{&container.State{Status: "something new"}, platform.StateUnknown},
		{nil, platform.StateUnknown},
	}
	for _, tt := range tests {
		name := "nil"
		if tt.state != nil {
			name = tt.state.Status
		}
		if got := normalizeStatus(tt.state); got != tt.want {
			t.Errorf("normalizeStatus(%s, paused=%v) = %s, want %s", name, tt.state != nil && tt.state.Paused, got, tt.want)
		}
	}
}

func TestStateSteps(t *testing.T) {
	const (
		run  = platform.StateRunning
		pau  = platform.StatePaused
		stop = platform.StateStopped
	)
	tests := []struct {
		from, to platform.SandboxState
		want     []stateAction
		wantErr  bool
	}{
		{from: run, to: run},
		{from: run, to: pau, want: []stateAction{actPause}},
		{from: run, to: stop, want: []stateAction{actStop}},
		{from: pau, to: run, want: []stateAction{actUnpause}},
		{from: pau, to: pau},
		{from: pau, to: stop, want: []stateAction{actUnpause, actStop}},
		{from: stop, to: run, want: []stateAction{actStart}},
		{from: stop, to: pau, want: []stateAction{actStart, actPause}},
		{from: stop, to: stop},
		{from: platform.StateFailed, to: run, wantErr: true},
		{from: platform.StateStopping, to: stop, wantErr: true},
		{from: platform.StateStarting, to: pau, wantErr: true},
		{from: run, to: platform.StateStarting, wantErr: true},
		{from: run, to: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(string(tt.from)+"->"+string(tt.to), func(t *testing.T) {
			got, err := stateSteps(tt.from, tt.to)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error = %v, want error %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("steps = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSandboxResources(t *testing.T) {
	tmpl := map[string]string{labelCPUCount: "2", labelMemoryMB: "256"}
	tests := []struct {
		name     string
		cpu, mem int64
		labels   map[string]string
		want     container.Resources
	}{
		{name: "nothing anywhere", want: container.Resources{}},
		{name: "template defaults", labels: tmpl,
			want: container.Resources{NanoCPUs: 2e9, Memory: 256 << 20, MemorySwap: 256 << 20}},
		{name: "spec wins", cpu: 1, mem: 64, labels: tmpl,
			want: container.Resources{NanoCPUs: 1e9, Memory: 64 << 20, MemorySwap: 64 << 20}},
		{name: "partly from template", mem: 32, labels: tmpl,
			want: container.Resources{NanoCPUs: 2e9, Memory: 32 << 20, MemorySwap: 32 << 20}},
		{name: "malformed label is unset", labels: map[string]string{labelCPUCount: "two", labelMemoryMB: ""},
			want: container.Resources{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sandboxResources(tt.cpu, tt.mem, tt.labels); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("resources = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSandboxUserLabelsOf(t *testing.T) {
	tests := []struct {
		name string
		all  map[string]string
		want map[string]string
	}{
		{name: "recorded keys pick the user's labels",
			all: map[string]string{
				"team": "a", "from-image": "x", platform.LabelManaged: "true",
				labelUserLabelKeys: `["team"]`,
			},
			want: map[string]string{"team": "a"}},
		{name: "recorded empty list means none",
			all:  map[string]string{"from-image": "x", labelUserLabelKeys: `[]`},
			want: map[string]string{}},
		{name: "not ours: all unreserved labels",
			all:  map[string]string{"maintainer": "m", platform.LabelKind: "template"},
			want: map[string]string{"maintainer": "m"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := userLabelsOf(tt.all); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("userLabelsOf = %v, want %v", got, tt.want)
			}
		})
	}
	// Round trip: what withUserLabelKeys records, userLabelsOf reads back.
	user := map[string]string{"b": "2", "a": "1"}
	all := withUserLabelKeys(managedLabels(kindSandbox, "box", platform.Marks{}, user), user)
	all["inherited"] = "yes"
	if got := userLabelsOf(all); !reflect.DeepEqual(got, user) {
		t.Errorf("round trip = %v, want %v", got, user)
	}
}

func TestCheckSandboxSpec(t *testing.T) {
	ok := platform.SandboxSpec{TemplateID: "sbx/t:latest"}
	tests := []struct {
		name    string
		mutate  func(*platform.SandboxSpec)
		state   platform.SandboxState
		wantErr string
	}{
		{name: "valid", mutate: func(*platform.SandboxSpec) {}, state: platform.StateRunning},
		{name: "disk", mutate: func(s *platform.SandboxSpec) { s.DiskMB = 1024 }, state: platform.StateRunning, wantErr: "does not support disk_mb"},
		{name: "no source", mutate: func(s *platform.SandboxSpec) { s.TemplateID = "" }, state: platform.StateRunning, wantErr: "exactly one"},
		{name: "two sources", mutate: func(s *platform.SandboxSpec) { s.FromSnapshotID = "sha256:x" }, state: platform.StateRunning, wantErr: "exactly one"},
		{name: "bad state", mutate: func(*platform.SandboxSpec) {}, state: "starting", wantErr: `state "starting"`},
		{name: "bad name", mutate: func(s *platform.SandboxSpec) { s.Name = "-x y" }, state: platform.StateRunning, wantErr: "sandbox name"},
		{name: "relative mount", mutate: func(s *platform.SandboxSpec) {
			s.VolumeMounts = []platform.VolumeMount{{VolumeID: "v", Path: "data"}}
		}, state: platform.StateRunning, wantErr: "absolute path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := ok
			tt.mutate(&spec)
			err := checkSandboxSpec(spec, tt.state)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one saying %q", err, tt.wantErr)
			}
		})
	}
}

// TestContainerOwnEnv: a sandbox's env is the container's variables minus
// those it inherited unchanged from its image.
func TestContainerOwnEnv(t *testing.T) {
	tests := []struct {
		name       string
		ctr, image []string
		want       map[string]string
	}{
		{name: "nothing given", ctr: []string{"PATH=/usr/bin"}, image: []string{"PATH=/usr/bin"}, want: map[string]string{}},
		{name: "given variables", ctr: []string{"PATH=/usr/bin", "TOKEN=s3cret", "EMPTY="}, image: []string{"PATH=/usr/bin"},
			want: map[string]string{"TOKEN": "s3cret", "EMPTY": ""}},
		{name: "image variable overridden", ctr: []string{"PATH=/opt/bin", "LANG=C"}, image: []string{"PATH=/usr/bin", "LANG=C"},
			want: map[string]string{"PATH": "/opt/bin"}},
		{name: "snapshot image blanks a secret, restored box sets it", ctr: []string{"TOKEN=new"}, image: []string{"TOKEN="},
			want: map[string]string{"TOKEN": "new"}},
		{name: "value with equals signs", ctr: []string{"OPTS=a=b=c"}, image: nil, want: map[string]string{"OPTS": "a=b=c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := containerOwnEnv(tt.ctr, tt.image)
			if !maps.Equal(got, tt.want) {
				t.Fatalf("containerOwnEnv(%q, %q) = %v, want %v", tt.ctr, tt.image, got, tt.want)
			}
		})
	}
}

func TestStatusSince(t *testing.T) {
	created := time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC)
	started := "2026-01-01T09:00:00Z"
	finished := "2026-01-01T10:00:00Z"
	tests := []struct {
		name   string
		state  container.State
		status platform.SandboxState
		want   string
	}{
		{"running since it started", container.State{Status: "running", StartedAt: started}, platform.StateRunning, started},
		{"exited since it finished", container.State{Status: "exited", StartedAt: started, FinishedAt: finished}, platform.StateStopped, finished},
		{"never started since it was created", container.State{Status: "created", StartedAt: "0001-01-01T00:00:00Z"}, platform.StateStopped, created.Format(time.RFC3339)},
		{"paused: the engine keeps no time", container.State{Status: "paused", Paused: true, StartedAt: started}, platform.StatePaused, ""},
		{"dead: unknown", container.State{Status: "dead", StartedAt: started, FinishedAt: finished}, platform.StateFailed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := tt.state
			got := statusSince(&st, tt.status, created)
			if tt.want == "" {
				if !got.IsZero() {
					t.Fatalf("statusSince = %s, want zero", got)
				}
				return
			}
			if got.Format(time.RFC3339) != tt.want {
				t.Fatalf("statusSince = %s, want %s", got.Format(time.RFC3339), tt.want)
			}
		})
	}
}

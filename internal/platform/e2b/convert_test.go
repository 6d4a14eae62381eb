package e2b

import (
	"errors"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestCreateTimeout(t *testing.T) {
	tests := []struct {
		in   time.Duration
		want int64
	}{{0, 300}, {time.Minute, 60}, {1500 * time.Millisecond, 2}, {24 * time.Hour, 86400}}
	for _, tt := range tests {
		if got := createTimeout(platform.Lifecycle{Timeout: tt.in}); got != tt.want {
			t.Errorf("createTimeout(%s) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestSandboxStatus(t *testing.T) {
	// E2B reports a pause with or without memory the same way: both read
	// as paused (the resource keeps a recorded stopped, PauseKindUnreported).
	tests := []struct {
		state string
		want  platform.SandboxState
	}{
		{"running", platform.StateRunning},
		{"paused", platform.StatePaused},
		{"snapshotting", platform.StateUnknown},
	}
	for _, tt := range tests {
		if got := sandboxStatus(tt.state); got != tt.want {
			t.Errorf("sandboxStatus(%q) = %s, want %s", tt.state, got, tt.want)
		}
	}
}

func TestCreateRequest(t *testing.T) {
	spec := platform.SandboxSpec{
		Name: "n", FromSnapshotID: "team/snap:default", State: platform.StateStopped,
		Env: map[string]string{"A": "1"}, Labels: map[string]string{"team": "x"},
		VolumeMounts: []platform.VolumeMount{{VolumeID: "vol-1", Path: "/data"}},
		Lifecycle:    platform.Lifecycle{Timeout: 10 * time.Minute, OnTimeout: platform.OnTimeoutPause},
		Marks:        platform.Marks{Owner: "ci", CreateToken: "tok"},
	}
	req, err := createRequest(spec, map[string]string{"vol-1": "data"})
	if err != nil {
		t.Fatal(err)
	}
	md := req.Metadata
	if req.TemplateID != "team/snap:default" || req.Timeout != 600 || !req.AutoPause || req.EnvVars["A"] != "1" ||
		len(req.VolumeMounts) != 1 || req.VolumeMounts[0] != (volumeMountAPI{Name: "data", Path: "/data"}) {
		t.Errorf("request = %+v", req)
	}
	want := map[string]string{"team": "x", platform.LabelManaged: "true", platform.LabelKind: "sandbox", platform.LabelName: "n",
		platform.LabelCreateToken: "tok", platform.LabelOwner: "ci", labelFromSnapshot: "team/snap:default", labelTimeout: "600"}
	for k, v := range want {
		if md[k] != v {
			t.Errorf("metadata[%s] = %q, want %q", k, md[k], v)
		}
	}
	if len(md) != len(want) {
		t.Errorf("metadata = %v, want exactly %v (metadata is fixed at create: nothing in it may describe a state)", md, want)
	}
	if _, err := createRequest(platform.SandboxSpec{VolumeMounts: []platform.VolumeMount{{VolumeID: "v", Path: "/d", ReadOnly: true}}},
		map[string]string{"v": "d"}); !errors.Is(err, platform.ErrUnsupported) {
		t.Errorf("read-only mount: %v, want unsupported", err)
	}
}

func TestSandboxFromDetail(t *testing.T) {
	end := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	d := sandboxDetail{SandboxID: "sb", TemplateID: "tpl", State: "running", EndAt: end, StartedAt: end.Add(-time.Hour),
		Metadata:     map[string]string{platform.LabelName: "n", labelFromSnapshot: "snap", labelTimeout: "600", "team": "x"},
		VolumeMounts: []volumeMountAPI{{Name: "data", Path: "/data"}}}
	d.Lifecycle = &struct {
		AutoResume bool   `json:"autoResume"`
		OnTimeout  string `json:"onTimeout"`
	}{OnTimeout: "pause"}
	sb := sandboxFromDetail(d, map[string]string{"data": "vol-1"})
	if sb.Name != "n" || sb.FromSnapshotID != "snap" || sb.TemplateID != "" || !sb.ExpiresAt.Equal(end) ||
		sb.Lifecycle.Timeout != 10*time.Minute || sb.Lifecycle.OnTimeout != platform.OnTimeoutPause ||
		len(sb.VolumeMounts) != 1 || sb.VolumeMounts[0].VolumeID != "vol-1" || platform.UserLabels(sb.Labels)["team"] != "x" {
		t.Errorf("sandbox = %+v", sb)
	}
	d.State = "paused"
	if sb := sandboxFromDetail(d, nil); !sb.ExpiresAt.IsZero() || sb.VolumeMounts[0].VolumeID != "data" {
		t.Errorf("paused sandbox = %+v: a paused box has no deadline; an unknown volume keeps its name", sb)
	}
}

func TestShortName(t *testing.T) {
	for in, want := range map[string]string{"a": "a", "team/a": "a", "team/a:v1": "a", "a:default": "a"} {
		if got := shortName(in); got != want {
			t.Errorf("shortName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTemplateFromBuilds(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w := templateWithBuilds{TemplateID: "t", Names: []string{"team/agent"}, Builds: []templateBuildRecord{
		{BuildID: "b1", Status: "ready", CreatedAt: t0, CPUCount: 1, MemoryMB: 512},
		{BuildID: "b2", Status: "ready", CreatedAt: t0.Add(time.Hour), CPUCount: 2, MemoryMB: 1024},
		{BuildID: "b3", Status: "building", CreatedAt: t0.Add(2 * time.Hour)},
	}}
	tpl := templateFromBuilds(w)
	if tpl.Name != "agent" || tpl.BuildID != "b2" || tpl.Status != "ready" || tpl.CPUCount != 2 {
		t.Errorf("template = %+v, want the newest ready build", tpl)
	}
	w.Builds = w.Builds[2:]
	if tpl := templateFromBuilds(w); tpl.BuildID != "b3" || tpl.Status != "building" {
		t.Errorf("template without a ready build = %+v", tpl)
	}
}

func TestCapabilitiesByTier(t *testing.T) {
	if got := capabilitiesFor(TierBase).Attribute(platform.AttrSandboxTimeout).MaxDuration; got != time.Hour {
		t.Errorf("base MaxTimeout = %s", got)
	}
	if got := capabilitiesFor(TierPro).Attribute(platform.AttrSandboxTimeout).MaxDuration; got != 24*time.Hour {
		t.Errorf("pro MaxTimeout = %s", got)
	}
	if _, err := New(Config{APIKey: "k", Tier: "gold"}); err == nil {
		t.Error("New accepted tier gold")
	}
	if _, err := New(Config{}); err == nil {
		t.Error("New accepted no API key")
	}
}

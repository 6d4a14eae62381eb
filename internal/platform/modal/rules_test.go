package modal

import (
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestSandboxRules(t *testing.T) {
	mount := []platform.VolumeMount{{VolumeID: "data", Path: "/data"}}
	tests := []struct {
		name string
		spec platform.SandboxSpec
		want string // the attribute of the one problem; "" for none
	}{
		{name: "memory snapshot with a mount", spec: platform.SandboxSpec{FromSnapshotID: "sn-abc", VolumeMounts: mount}, want: "volume_mount"},
		{name: "memory snapshot alone", spec: platform.SandboxSpec{FromSnapshotID: "sn-abc"}},
		{name: "filesystem snapshot with a mount", spec: platform.SandboxSpec{FromSnapshotID: "im-abc", VolumeMounts: mount}},
		{name: "template with a mount", spec: platform.SandboxSpec{TemplateID: "im-abc", VolumeMounts: mount}},
		{name: "a name with a space", spec: platform.SandboxSpec{TemplateID: "im-abc", Name: "my box"}, want: "name"},
		{name: "a name too long", spec: platform.SandboxSpec{TemplateID: "im-abc", Name: strings.Repeat("a", 65)}, want: "name"},
		{name: "a name shaped like an app id", spec: platform.SandboxSpec{TemplateID: "im-abc", Name: "ap-0123456789abcdefghijkl"}, want: "name"},
		{name: "a valid name", spec: platform.SandboxSpec{TemplateID: "im-abc", Name: "agent-1.v2_x"}},
		{name: "memory snapshot with a size", spec: platform.SandboxSpec{FromSnapshotID: "sn-abc", CPUCount: 2}, want: "cpu_count"},
		{name: "memory snapshot with memory", spec: platform.SandboxSpec{FromSnapshotID: "sn-abc", MemoryMB: 512}, want: "memory_mb"},
		{name: "memory snapshot with env", spec: platform.SandboxSpec{FromSnapshotID: "sn-abc", Env: map[string]string{"A": "1"}}, want: "env"},
		{name: "memory snapshot with a timeout", spec: platform.SandboxSpec{FromSnapshotID: "sn-abc", Lifecycle: platform.Lifecycle{Timeout: time.Hour}}, want: "timeout"},
		{name: "memory snapshot with an idle timeout", spec: platform.SandboxSpec{FromSnapshotID: "sn-abc", Lifecycle: platform.Lifecycle{IdleTimeout: time.Minute}}, want: "idle_timeout"},
		{name: "memory snapshot with network rules", spec: platform.SandboxSpec{FromSnapshotID: "sn-abc", Network: &platform.Network{AllowOut: []string{"10.0.0.0/8"}}}, want: "network"},
		{name: "memory snapshot with memory snapshots", spec: platform.SandboxSpec{FromSnapshotID: "sn-abc", MemorySnapshots: true}, want: "memory_snapshots"},
		{name: "filesystem snapshot with every setting", spec: platform.SandboxSpec{FromSnapshotID: "im-abc", CPUCount: 2, MemoryMB: 512,
			Env: map[string]string{"A": "1"}, Lifecycle: platform.Lifecycle{Timeout: time.Hour}, MemorySnapshots: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sandboxRules{}.CheckSandbox(t.Context(), platform.SandboxPlan{Spec: tt.spec, MountsKnown: true, Creating: true})
			if tt.want == "" && len(got) != 0 || tt.want != "" && (len(got) != 1 || got[0].Attribute != tt.want) {
				t.Fatalf("problems = %+v, want %q", got, tt.want)
			}
		})
	}
}

func TestSnapshotRules(t *testing.T) {
	f := newFixture(t, false)
	tpl := f.template(t)
	off := f.box(t, platform.SandboxSpec{TemplateID: tpl})
	on := f.box(t, platform.SandboxSpec{TemplateID: tpl, MemorySnapshots: true})
	rules := f.p.Extensions().SnapshotRules
	tests := []struct {
		name string
		spec platform.SnapshotSpec
		want int
	}{
		{name: "memory of a box without", spec: platform.SnapshotSpec{SandboxID: off.ID, IncludeMemory: true}, want: 1},
		{name: "memory of a box with", spec: platform.SnapshotSpec{SandboxID: on.ID, IncludeMemory: true}},
		{name: "filesystem", spec: platform.SnapshotSpec{SandboxID: off.ID}},
		{name: "unknown box is judged at apply", spec: platform.SnapshotSpec{SandboxID: "sb-unknown", IncludeMemory: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rules.CheckSnapshot(f.ctx, tt.spec)
			if len(got) != tt.want || tt.want == 1 && got[0].Attribute != "include_memory" {
				t.Fatalf("problems = %+v, want %d", got, tt.want)
			}
		})
	}
}

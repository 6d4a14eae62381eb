package daytona

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
)

func TestSandboxRules(t *testing.T) {
	off, on := false, true
	cases := []struct {
		name  string
		spec  platform.SandboxSpec
		attrs string
	}{
		{"whole minutes", platform.SandboxSpec{Lifecycle: platform.Lifecycle{IdleTimeout: time.Hour, AutoArchiveAfter: 48 * time.Hour}}, ""},
		{"seconds", platform.SandboxSpec{Lifecycle: platform.Lifecycle{IdleTimeout: 90 * time.Second, AutoDeleteAfter: time.Minute + time.Millisecond}}, "idle_timeout,auto_delete_after"},
		{"allow list cut off", platform.SandboxSpec{Network: &platform.Network{Internet: &off, AllowOut: []string{"10.0.0.0/8", "1.2.3.4"}}}, ""},
		{"allow list with internet", platform.SandboxSpec{Network: &platform.Network{Internet: &on, AllowOut: []string{"10.0.0.0/8"}}}, ""},
		{"host name", platform.SandboxSpec{Network: &platform.Network{Internet: &off, AllowOut: []string{"example.com"}}}, "network"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, p := range (sandboxRules{}).CheckSandbox(context.Background(), platform.SandboxPlan{Spec: c.spec}) {
				got = append(got, p.Attribute)
			}
			if strings.Join(got, ",") != c.attrs {
				t.Errorf("problems on %q, want %q", got, c.attrs)
			}
		})
	}
}

// TestCapabilities: every refused row says why; every row's Doc follows
// the Doc rules; the rows the brief names are as built.
func TestCapabilities(t *testing.T) {
	caps := capabilities()
	for _, k := range platform.AllAttributes() {
		row, ok := caps.Attributes[k]
		if !ok {
			t.Errorf("%s has no row", k)
			continue
		}
		if row.Support == platform.Refused && row.Why == "" {
			t.Errorf("%s is refused without a Why", k)
		}
		if d := row.Doc; d != "" && (strings.HasSuffix(d, ".") || strings.ToLower(d[:1]) != d[:1]) {
			t.Errorf("%s: Doc %q is not lower-case without a final period", k, d)
		}
	}
	for k, want := range map[string]platform.Support{
		platform.AttrTemplateDockerfile: platform.Replace, platform.AttrSandboxState: platform.InPlace,
		platform.AttrSandboxDiskMB: platform.InPlace, platform.AttrSandboxTimeout: platform.Refused,
		platform.AttrSandboxIdleTimeout: platform.InPlace, platform.AttrSnapshotIncludeMemory: platform.Replace,
	} {
		if caps.Attribute(k).Support != want {
			t.Errorf("%s: %s, want %s", k, caps.Attribute(k).Support, want)
		}
	}
	if d := caps.Attribute(platform.AttrSandboxDiskMB); !d.GrowOnly || !d.UpdateOnly || d.Step != 1024 {
		t.Errorf("disk_mb row %+v", d)
	}
}

func TestDefinition(t *testing.T) {
	d := Definition()
	env := map[string]string{"DAYTONA_API_KEY": "k", "DAYTONA_TARGET": "eu", "DAYTONA_ORGANIZATION_ID": "org"}
	cfg, err := d.Resolve(map[string]string{}, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Settings["target"] != "eu" || cfg.Settings["organization_id"] != "org" || cfg.Settings["api_key"] != "k" {
		t.Errorf("settings %v", cfg.Settings)
	}
	if _, err := d.Resolve(map[string]string{}, func(string) string { return "" }); err == nil {
		t.Error("no api key accepted")
	}
	if _, err := d.Resolve(map[string]string{"api_key": "k", "api_url": "ftp://x"}, nil); err == nil {
		t.Error("ftp URL accepted")
	}
	p, err := d.Configure(context.Background(), cfg)
	if err != nil || p.Name() != "daytona" {
		t.Fatalf("configure: %v", err)
	}
	_ = p.Close()
}

// TestPausedRule: state = "paused" on a container template is a plan-time
// problem on state; on a VM template it is fine.
func TestPausedRule(t *testing.T) {
	f := newFixture(t, daytonafake.Options{})
	vm := f.seedClass("vm", "linux-vm")
	rules := f.p.Extensions().SandboxRules
	for tpl, want := range map[string]int{daytonafake.DefaultSnapshotName: 1, vm: 0} {
		got := rules.CheckSandbox(context.Background(), platform.SandboxPlan{Spec: platform.SandboxSpec{TemplateID: tpl, State: platform.StatePaused}})
		if len(got) != want || (want == 1 && got[0].Attribute != "state") {
			t.Errorf("template %s: %+v", tpl, got)
		}
	}
}

func TestNetworkBody(t *testing.T) {
	off, on := false, true
	cases := []struct {
		name string
		n    platform.Network
		want networkSettings
		err  bool
	}{
		{"default", platform.Network{}, networkSettings{}, false},
		{"internet on with an allow list restricts nothing", platform.Network{Internet: &on, AllowOut: []string{"10.0.0.0/8"}}, networkSettings{}, false},
		{"cut off", platform.Network{Internet: &off}, networkSettings{NetworkBlockAll: true}, false},
		{"cut off but the list", platform.Network{Internet: &off, AllowOut: []string{"10.0.0.0/8", "1.2.3.4"}}, networkSettings{NetworkAllowList: "10.0.0.0/8,1.2.3.4"}, false},
		{"deny list", platform.Network{DenyOut: []string{"10.0.0.0/8"}}, networkSettings{}, true},
		{"host name", platform.Network{Internet: &off, AllowOut: []string{"example.com"}}, networkSettings{}, true},
	}
	for _, c := range cases {
		got, err := networkBody(c.n)
		if (err != nil) != c.err || got != c.want {
			t.Errorf("%s: %+v %v", c.name, got, err)
		}
	}
}

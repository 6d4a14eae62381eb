package orphans

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/drift"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// stateV4 holds one instance of every sbx resource (a counted sandbox, a
// deposed one, one in a module), a data source, another provider's
// resource and a sandbox that was planned but never got an id.
const stateV4 = `{
  "version": 4, "terraform_version": "1.11.4", "serial": 3, "lineage": "x",
  "resources": [
    {"mode": "managed", "type": "sbx_template", "name": "t", "provider": "provider[\"registry.terraform.io/sbxhq/sbx\"]",
     "instances": [{"attributes": {"id": "sbx/agent:latest", "build_id": "sha256:aaaa"}}]},
    {"mode": "managed", "type": "sbx_volume", "name": "v",
     "instances": [{"attributes": {"id": "work"}}]},
    {"mode": "managed", "type": "sbx_sandbox", "name": "box",
     "instances": [
       {"index_key": 0, "attributes": {"id": "c0", "platform": "docker"}},
       {"index_key": 1, "attributes": {"id": "c1", "platform": "docker"}},
       {"index_key": 2, "deposed": "00000001", "attributes": {"id": "c-deposed", "platform": "docker"}},
       {"index_key": 3, "attributes": {"id": null}}
     ]},
    {"module": "module.m", "mode": "managed", "type": "sbx_snapshot", "name": "s",
     "instances": [{"attributes": {"id": "sha256:5555", "platform": "docker"}}]},
    {"mode": "data", "type": "sbx_template", "name": "shared",
     "instances": [{"attributes": {"id": "sbx/shared:latest"}}]},
    {"mode": "managed", "type": "null_resource", "name": "n",
     "instances": [{"attributes": {"id": "c9"}}]}
  ]
}`

// showJSON is terraform show -json of a second configuration.
const showJSON = `{
  "format_version": "1.0", "terraform_version": "1.11.4",
  "values": {"root_module": {
    "resources": [
      {"address": "sbx_volume.cache", "mode": "managed", "type": "sbx_volume", "name": "cache", "values": {"id": "cache"}}
    ],
    "child_modules": [{"address": "module.k", "resources": [
      {"address": "module.k.sbx_sandbox.b", "mode": "managed", "type": "sbx_sandbox", "name": "b", "values": {"id": "e2b-box", "platform": "e2b"}}
    ]}]
  }}
}`

func obj(kind, id string, aliases ...string) platform.ManagedObject {
	return platform.ManagedObject{Kind: kind, ID: id, Aliases: aliases}
}

// TestHeldReadsEverySbxResource: the ids of every managed sbx_* instance of
// every state given are held (deposed ones too, modules too, in both state
// layouts); data sources, other providers' resources and instances with no
// id hold nothing.
func TestHeldReadsEverySbxResource(t *testing.T) {
	h := NewHeld()
	if err := h.Read(strings.NewReader(stateV4), "a.tfstate"); err != nil {
		t.Fatal(err)
	}
	if err := h.Read(strings.NewReader(showJSON), "b.json"); err != nil {
		t.Fatal(err)
	}
	for _, o := range []platform.ManagedObject{
		obj(platform.KindTemplate, "sbx/agent:latest"), obj(platform.KindVolume, "work"),
		obj(platform.KindSandbox, "c0"), obj(platform.KindSandbox, "c1"), obj(platform.KindSandbox, "c-deposed"),
		obj(platform.KindSnapshot, "sha256:5555"), obj(platform.KindVolume, "cache"), obj(platform.KindSandbox, "e2b-box"),
		// held under an alias: a template imported by its image id
		obj(platform.KindTemplate, "sbx/other:latest", "sha256:5555"),
	} {
		if !h.Holds(o) {
			t.Errorf("%s %s is not held", o.Kind, o.ID)
		}
	}
	for _, o := range []platform.ManagedObject{
		obj(platform.KindTemplate, "sbx/shared:latest"), // only a data source reads it
		obj(platform.KindSandbox, "c9"),                 // another provider's resource
		obj(platform.KindSandbox, "c2"),
		obj(platform.KindSnapshot, "sha256:aaaa"), // build_id is not an id
	} {
		if h.Holds(o) {
			t.Errorf("%s %s is held, want not", o.Kind, o.ID)
		}
	}
	if h.Len() != 8 {
		t.Errorf("Len = %d, want 8", h.Len())
	}
	want := []StateSummary{{Name: "a.tfstate", Format: drift.FormatState, Resources: 6}, {Name: "b.json", Format: drift.FormatShowJSON, Resources: 2}}
	if len(h.States) != 2 || h.States[0] != want[0] || h.States[1] != want[1] {
		t.Errorf("States = %+v, want %+v", h.States, want)
	}
	if h.Platforms["docker"] != 4 || h.Platforms["e2b"] != 1 {
		t.Errorf("Platforms = %v", h.Platforms)
	}
}

// TestHeldReadFile: files and standard input; bad input is an error naming
// the file and this command, never a partial set.
func TestHeldReadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "terraform.tfstate")
	if err := os.WriteFile(good, []byte(stateV4), 0o644); err != nil {
		t.Fatal(err)
	}
	h := NewHeld()
	if err := h.ReadFile(good, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.ReadFile("-", strings.NewReader(`{"version":4}`)); err != nil {
		t.Fatal(err)
	}
	if h.States[1].Name != "standard input" || h.States[1].Resources != 0 {
		t.Errorf("stdin summary = %+v", h.States[1])
	}

	cases := []struct{ name, content, want string }{
		{"old.tfstate", `{"version":3,"modules":[]}`, "unsupported state version 3: orphans reads state format version 4"},
		{"plan.json", `{"format_version":"1.2","planned_values":{},"values":{}}`, "give orphans the state"},
		{"cut.tfstate", `{"version":4,"resources":[`, "truncated"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		err := NewHeld().ReadFile(p, nil)
		var ie *drift.InputError
		if err == nil || !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err = %v, want an input error naming the file and %q", c.name, err, c.want)
		}
	}
	if err := NewHeld().ReadFile(filepath.Join(dir, "missing.tfstate"), nil); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
	if err := NewHeld().ReadFile(dir, nil); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("directory: %v", err)
	}
}

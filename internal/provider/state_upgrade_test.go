package provider

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// stateV0Fixture is a state the first release (schema version 0 of every
// resource) wrote: `terraform apply` of examples/quickstart on Docker, the
// objects named upgrade-v0-*, with Terraform 1.11.4.
const stateV0Fixture = "testdata/state_v0/docker.tfstate"

// stateV0Instance is one resource instance of the fixture.
type stateV0Instance struct {
	typ, name string
	version   int64
	attrs     map[string]json.RawMessage
}

func readStateV0Fixture(t *testing.T) []stateV0Instance {
	t.Helper()
	raw, err := os.ReadFile(stateV0Fixture)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Resources []struct {
			Type, Name string
			Instances  []struct {
				SchemaVersion int64                      `json:"schema_version"`
				Attributes    map[string]json.RawMessage `json:"attributes"`
			}
		}
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	var out []stateV0Instance
	for _, r := range file.Resources {
		for _, in := range r.Instances {
			out = append(out, stateV0Instance{typ: r.Type, name: r.Name, version: in.SchemaVersion, attrs: in.Attributes})
		}
	}
	return out
}

// TestStateUpgradeFromV0: every instance of a state the first release wrote
// reads with the current schemas through the provider's server, as
// Terraform calls it on the first plan after an upgrade: the attributes
// version 1 dropped are gone, every other value is the same, and the
// dropped ones are exactly what the release's objects held beyond the
// current schema (so no attribute is lost without an upgrader saying so).
// A saved attribute that is neither in the schema nor dropped by name
// fails the upgrade, naming it, rather than vanishing.
func TestStateUpgradeFromV0(t *testing.T) {
	server, schemas := testProviderServer(t)
	dropped := map[string][]string{"sbx_volume": nil}
	for typ, names := range stateUpgradeDropped {
		dropped[typ] = names
	}
	wantVersion := map[string]int64{"sbx_sandbox": 1, "sbx_snapshot": 1, "sbx_template": 1, "sbx_volume": 0}
	seen := map[string]bool{}
	for _, in := range readStateV0Fixture(t) {
		t.Run(in.typ+"."+in.name, func(t *testing.T) {
			seen[in.typ] = true
			schema := schemas.ResourceSchemas[in.typ]
			if schema == nil || in.version != 0 {
				t.Fatalf("the fixture holds %s at schema version %d; want a resource of this provider at 0", in.typ, in.version)
			}
			if schema.Version != wantVersion[in.typ] {
				t.Errorf("%s schema version %d, want %d", in.typ, schema.Version, wantVersion[in.typ])
			}
			current := map[string]bool{}
			for _, a := range schema.Block.Attributes {
				current[a.Name] = true
			}
			for _, b := range schema.Block.BlockTypes {
				current[b.TypeName] = true
			}
			var beyond []string
			for name := range in.attrs {
				if !current[name] {
					beyond = append(beyond, name)
				}
			}
			sort.Strings(beyond)
			if want := dropped[in.typ]; !slices.Equal(beyond, want) {
				t.Fatalf("the release's %s held %v beyond the current schema; the upgrader drops %v", in.typ, beyond, want)
			}

			got := upgradeState(t, server, in.typ, 0, in.attrs)
			if len(got.Diagnostics) != 0 {
				t.Fatalf("upgrade: %v", diagnosticsText(got.Diagnostics))
			}
			upgraded, err := got.UpgradedState.Unmarshal(schema.ValueType())
			if err != nil {
				t.Fatal(err)
			}
			kept := map[string]json.RawMessage{}
			for name, v := range in.attrs {
				if current[name] {
					kept[name] = v
				}
			}
			keptJSON, _ := json.Marshal(kept)
			want, err := tfprotov6.RawState{JSON: keptJSON}.Unmarshal(schema.ValueType())
			if err != nil {
				t.Fatal(err)
			}
			if diff, _ := want.Diff(upgraded); len(diff) != 0 {
				t.Errorf("the upgrade changed %d values; first at %s: %v -> %v", len(diff), diff[0].Path, diff[0].Value1, diff[0].Value2)
			}

			if len(dropped[in.typ]) == 0 {
				return
			}
			// An attribute nobody named is not dropped quietly.
			extra := map[string]json.RawMessage{"launch_code": json.RawMessage(`"x"`)}
			for k, v := range in.attrs {
				extra[k] = v
			}
			bad := upgradeState(t, server, in.typ, 0, extra)
			if text := diagnosticsText(bad.Diagnostics); !strings.Contains(text, "launch_code") {
				t.Errorf("an unknown saved attribute: diagnostics %q, want an error naming launch_code", text)
			}
		})
	}
	for typ := range dropped {
		if !seen[typ] {
			t.Errorf("the fixture holds no %s", typ)
		}
	}
}

func upgradeState(t *testing.T, server tfprotov6.ProviderServer, typ string, version int64, attrs map[string]json.RawMessage) *tfprotov6.UpgradeResourceStateResponse {
	t.Helper()
	raw, err := json.Marshal(attrs)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.UpgradeResourceState(context.Background(), &tfprotov6.UpgradeResourceStateRequest{
		TypeName: typ, Version: version, RawState: &tfprotov6.RawState{JSON: raw},
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func diagnosticsText(diags []*tfprotov6.Diagnostic) string {
	var parts []string
	for _, d := range diags {
		parts = append(parts, d.Summary+": "+d.Detail)
	}
	return strings.Join(parts, "; ")
}

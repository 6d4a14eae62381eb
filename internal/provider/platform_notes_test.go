package provider

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
)

// notesTestDef is a platform of title whose default table is attrs.
func notesTestDef(title string, attrs platform.Attributes) platform.Definition {
	return platform.Definition{
		Name: strings.ToLower(title), Title: title,
		Capabilities: func() platform.Capabilities { return platform.Capabilities{Attributes: attrs} },
	}
}

// TestPlatformNotes: each row reads as its fields say; rows that read the
// same share a sentence; a platform without a table is left out.
func TestPlatformNotes(t *testing.T) {
	alpha := notesTestDef("Alpha", platform.Attributes{
		platform.AttrSandboxTimeout:       {Support: platform.InPlace, Unreported: true, Doc: "tracked only."},
		platform.AttrSandboxMemoryMB:      {Support: platform.InPlace, Min: 6, Max: 512, Why: "the engine's range"},
		platform.AttrSandboxMountReadOnly: {Support: platform.Replace},
		platform.AttrTemplateStartCmd:     {Support: platform.InPlace},
		platform.AttrSnapshotSandboxID:    {Support: platform.Replace, Doc: "a commit"},
	})
	beta := notesTestDef("Beta", platform.Attributes{
		platform.AttrSandboxTimeout:       {Support: platform.InPlace, MaxDuration: time.Hour, Required: true},
		platform.AttrSandboxOnTimeout:     {Support: platform.Replace, Values: []string{"kill", "pause"}},
		platform.AttrSandboxMountReadOnly: {Support: platform.Replace, Values: []string{"false"}, Why: "always read-write; remove it"},
		platform.AttrTemplateStartCmd:     {Support: platform.InPlace},
	})
	gamma := notesTestDef("Gamma", platform.Attributes{})
	tableless := platform.Definition{Name: "none", Title: "None"}
	defs := []platform.Definition{alpha, beta, gamma, tableless}

	for key, want := range map[string]string{
		platform.AttrSandboxTimeout: "Alpha: changed in place; not reported back: kept from the configuration; tracked only. " +
			"Beta: required; at most 1h; changed in place. Gamma refuses it at plan time.",
		platform.AttrSandboxMemoryMB: "Alpha: at least 6; at most 512; changed in place; the engine's range. Beta and Gamma refuse it at plan time.",
		// Platforms share a sentence wherever the first of them stands.
		platform.AttrSandboxOnTimeout: "Alpha and Gamma refuse it at plan time. Beta: one of `kill` or `pause`; a change replaces the sandbox.",
		platform.AttrSandboxMountReadOnly: "Alpha: a change replaces the sandbox. Beta: a change replaces the sandbox; only `false`: " +
			"always read-write; remove it. Gamma refuses it at plan time.",
		platform.AttrTemplateStartCmd: "Alpha and Beta: rebuilt in place. Gamma refuses it at plan time.",
		// The resource keeps a snapshot's source: no word on a change.
		platform.AttrSnapshotSandboxID: "Alpha: a commit. Beta and Gamma refuse it at plan time.",
	} {
		if got := platformNotes(defs, key); got != want {
			t.Errorf("platformNotes(%s) =\n  %s\nwant\n  %s", key, got, want)
		}
	}
	// As an action's argument, used once: what later plans would do with a
	// change, and that a value is not reported back, is left out.
	for key, want := range map[string]string{
		platform.AttrSandboxTimeout:       "Alpha: tracked only. Beta: required; at most 1h. Gamma refuses it at plan time.",
		platform.AttrSandboxMountReadOnly: "Beta: only `false`: always read-write; remove it. Gamma refuses it at plan time.",
	} {
		if got := platformNotesOf(defs, key, true); got != want {
			t.Errorf("platformNotesOf(%s, once) =\n  %s\nwant\n  %s", key, got, want)
		}
	}
	if got := platformNotes([]platform.Definition{tableless}, platform.AttrSandboxTimeout); got != "" {
		t.Errorf("a platform without a table is documented: %q", got)
	}
	if got := withPlatformNotes("Base.", nil, platform.AttrSandboxTimeout); got != "Base." {
		t.Errorf("withPlatformNotes without platforms = %q", got)
	}
	if got := platformsAside(defs, func(c platform.Capabilities) bool { return c.Accepts(platform.AttrSandboxMemoryMB) }); got != " (Alpha)" {
		t.Errorf("platformsAside = %q", got)
	}
}

// TestSchemasDocumentTables: every registered platform's Why and Doc of
// every row appears in the schema of the resource the row is about, so a
// new platform documents itself and no description disagrees with a table.
func TestSchemasDocumentTables(t *testing.T) {
	ctx := context.Background()
	defs := platforms.All()
	described := map[string]string{}
	for kind, r := range map[string]resource.Resource{
		"template": newTemplateResource(defs), "volume": newVolumeResource(defs),
		"sandbox": newSandboxResource(defs), "snapshot": newSnapshotResource(defs),
	} {
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		text := resp.Schema.MarkdownDescription
		for _, a := range resp.Schema.Attributes {
			text += "\n" + a.GetMarkdownDescription()
		}
		for _, b := range resp.Schema.Blocks {
			text += "\n" + b.GetMarkdownDescription()
			for _, a := range b.GetNestedObject().GetAttributes() { // volume_mount.read_only
				text += "\n" + a.GetMarkdownDescription()
			}
		}
		described[kind] = text
	}

	for _, def := range defs {
		if def.Capabilities == nil {
			t.Errorf("%s has no Capabilities: its attributes are undocumented", def.Name)
			continue
		}
		caps := def.Capabilities()
		for _, key := range platform.AllAttributes() {
			row := caps.Attribute(key)
			kind, _, _ := strings.Cut(key, ".")
			for _, s := range []string{row.Why, row.Doc} {
				if s != "" && !strings.Contains(described[kind], s) {
					t.Errorf("%s %s: the sbx_%s schema does not say %q", def.Name, key, kind, s)
				}
			}
		}
	}

	// What each platform says of running commands is in sbx_sandbox_exec's.
	var aresp action.SchemaResponse
	newSandboxExecAction(defs).Schema(ctx, action.SchemaRequest{}, &aresp)
	execText := aresp.Schema.MarkdownDescription
	for _, a := range aresp.Schema.Attributes {
		execText += "\n" + a.GetMarkdownDescription()
	}
	for _, def := range defs {
		e := def.Capabilities().Exec
		if !e.Runs && e.Why == "" {
			t.Errorf("%s runs no command and does not say why (Capabilities.Exec.Why)", def.Name)
		}
		for _, s := range []string{e.Why, e.Doc, e.NoEnvWhy, e.NoWorkingDirWhy} {
			if s != "" && !strings.Contains(execText, s) {
				t.Errorf("%s: the sbx_sandbox_exec schema does not say %q", def.Name, s)
			}
		}
		if e.Runs && ((!e.Env && e.NoEnvWhy == "") || (!e.WorkingDir && e.NoWorkingDirWhy == "")) {
			t.Errorf("%s refuses env or working_dir without saying why", def.Name)
		}
	}

	// The data sources are built for the provider's platforms too.
	var dresp datasource.SchemaResponse
	newSnapshotsDataSource([]platform.Definition{notesTestDef("Alpha", nil)}).Schema(ctx, datasource.SchemaRequest{}, &dresp)
	if d := dresp.Schema.MarkdownDescription; !strings.Contains(d, "(Alpha)") {
		t.Errorf("sbx_snapshots of a platform reporting no creation times does not name it: %q", d)
	}
}

// TestProviderNamesNoPlatform: outside its registration file the provider
// names no platform, in code, descriptions or comments; what it says of a
// platform comes from the platform's definition.
func TestProviderNamesNoPlatform(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, def := range platforms.All() {
		names = append(names, regexp.QuoteMeta(def.Name), regexp.QuoteMeta(def.Title))
	}
	named := regexp.MustCompile(`(?i)\b(` + strings.Join(names, "|") + `)\b`)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := named.FindString(line); m != "" {
				t.Errorf("%s:%d names the platform %q: %s", f, i+1, m, strings.TrimSpace(line))
			}
		}
	}
}

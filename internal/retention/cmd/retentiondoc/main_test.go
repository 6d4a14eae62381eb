package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
	"github.com/sbxhq/terraform-provider-sbx/internal/retention"
)

func writeDoc(t *testing.T, body string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "guide.md")
	if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestRunRegisteredPlatformsOnly: the guide's table holds a section per
// registered platform and every one of their rows.
func TestRunRegisteredPlatformsOnly(t *testing.T) {
	defs := platforms.All()
	name := writeDoc(t, "intro\n"+retention.DocTableBegin+"\nstale\n"+retention.DocTableEnd+"\n")
	if err := run(name, true, defs); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Errorf("check of a stale table: err = %v, want stale", err)
	}
	if err := run(name, false, defs); err != nil {
		t.Fatal(err)
	}
	if err := run(name, true, defs); err != nil {
		t.Errorf("check right after writing: %v", err)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	rows := 0
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(line, "| `") {
			rows++
		}
	}
	if want := len(platform.RetentionTable(defs).Rules()); rows != want || want == 0 {
		t.Errorf("%d rows, want one per registered rule (%d)", rows, want)
	}
	for _, d := range defs {
		if len(d.Retention) > 0 && !strings.Contains(doc, "\n### "+d.Title+"\n") {
			t.Errorf("no section for %s", d.Title)
		}
	}
}

func TestRunErrors(t *testing.T) {
	defs := platforms.All()
	if err := run(filepath.Join(t.TempDir(), "missing.md"), false, defs); err == nil {
		t.Error("missing file: want an error")
	}
	if err := run(writeDoc(t, "no markers"), false, defs); err == nil || !strings.Contains(err.Error(), "marker") {
		t.Errorf("no markers: err = %v", err)
	}
	untitled := []platform.Definition{{Name: "x", Retention: []retention.Rule{{Key: "k", Platform: "x", Object: retention.Sandbox,
		State: retention.StatePaused, Since: retention.SinceCreated, Action: retention.ActionDelete, Source: "s"}}}}
	if err := run(writeDoc(t, retention.DocTableBegin+"\n"+retention.DocTableEnd+"\n"), false, untitled); err == nil ||
		!strings.Contains(err.Error(), `"x"`) {
		t.Errorf("a platform without a title: err = %v", err)
	}
	broken := []platform.Definition{{Name: "x", Title: "X", Retention: []retention.Rule{{Key: "k", Platform: "x"}}}}
	if err := run(writeDoc(t, retention.DocTableBegin+"\n"+retention.DocTableEnd+"\n"), false, broken); err == nil ||
		!strings.Contains(err.Error(), "retention table") {
		t.Errorf("a malformed row: err = %v", err)
	}
}

// TestRunTemplateRows: a registered platform's template rows (Daytona's
// unused_template, say) appear in the guide like its sandbox and snapshot
// rows, saying what a template's last use is.
func TestRunTemplateRows(t *testing.T) {
	row := retention.Rule{Key: "unused_template", Platform: "tplplat", Object: retention.Template, State: retention.TemplateReady,
		Window: 14 * 24 * time.Hour, Since: retention.SinceLastUsed, Action: retention.ActionDeactivate, Enforced: true, Source: "tplplat docs"}
	defs := append(platforms.All(), platform.Definition{Name: "tplplat", Title: "Tplplat", Retention: []retention.Rule{row}})
	name := writeDoc(t, retention.DocTableBegin+"\n"+retention.DocTableEnd+"\n")
	if err := run(name, false, defs); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	want := "### Tplplat\n\n| key | object | state | window | counts from | action | user setting and limits | source |\n|---|---|---|---|---|---|---|---|\n" +
		"| `unused_template` | template | ready | 14d | last use (a box started from it; creation when none) | deactivate | — | tplplat docs |\n"
	if !strings.Contains(string(b), want) {
		t.Errorf("the guide lacks the template row:\n%s", b)
	}
}

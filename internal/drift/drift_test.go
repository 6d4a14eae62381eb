package drift

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

var driftTestNow = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func driftTestTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// driftTestWantFindings is what both fixtures hold at driftTestNow with a
// 72h warning window.
func driftTestWantFindings(t *testing.T) []Finding {
	return []Finding{
		{Address: `module.team["a"].module.inner.sbx_snapshot.snap["nightly"]`, Type: TypeSnapshot, ID: "sn-nightly", Platform: "modal", Status: "memory",
			ExpiresAt: driftTestTime(t, "2026-04-30T00:00:00Z"), Rule: "memory_snapshot", Action: "expire", RetentionStatus: "expired", Recorded: "ok"},
		{Address: "sbx_sandbox.expired", Type: TypeSandbox, ID: "c-expired", Platform: "docker", Status: "paused",
			ExpiresAt: driftTestTime(t, "2026-05-01T10:00:00Z"), Rule: "paused_sandbox", Action: "delete", RetentionStatus: "expired", Recorded: "expiring"},
		{Address: `module.team["a"].sbx_sandbox.box[0]`, Type: TypeSandbox, ID: "c-box0", Platform: "e2b", Status: "running",
			ExpiresAt: driftTestTime(t, "2026-05-02T12:00:00Z"), Rule: "running_sandbox", Action: "kill", RetentionStatus: "expiring", Recorded: "expiring"},
		{Address: "sbx_sandbox.soon", Type: TypeSandbox, ID: "d-soon", Platform: "daytona", Status: "stopped",
			ExpiresAt: driftTestTime(t, "2026-05-04T11:00:00Z"), Rule: "stopped_sandbox", Action: "archive", RetentionStatus: "expiring", Recorded: "ok"},
	}
}

func TestDetectFixtures(t *testing.T) {
	cases := []struct {
		file   string
		format Format
	}{
		{"testdata/state_v4.tfstate", FormatState},
		{"testdata/show.json", FormatShowJSON},
	}
	for _, c := range cases {
		for _, oneByte := range []bool{false, true} {
			name := c.file
			if oneByte {
				name += "/one-byte-reads" // every string and number spans a buffer refill
			}
			t.Run(name, func(t *testing.T) {
				data, err := os.ReadFile(c.file)
				if err != nil {
					t.Fatal(err)
				}
				var r = bytes.NewReader(data)
				rep, err := Detect(r, driftTestNow, 72*time.Hour)
				if oneByte {
					rep, err = Detect(iotest.OneByteReader(bytes.NewReader(data)), driftTestNow, 72*time.Hour)
				}
				if err != nil {
					t.Fatal(err)
				}
				if rep.Format != c.format {
					t.Errorf("format = %s, want %s", rep.Format, c.format)
				}
				if want := driftTestWantFindings(t); !reflect.DeepEqual(rep.Findings, want) {
					t.Errorf("findings:\n got %+v\nwant %+v", rep.Findings, want)
				}
				if rep.Checked != 7 || rep.Expired != 2 || rep.Expiring != 2 || rep.OK != 1 || rep.NoDeadline != 2 {
					t.Errorf("summary = checked %d expired %d expiring %d ok %d none %d, want 7 2 2 1 2",
						rep.Checked, rep.Expired, rep.Expiring, rep.OK, rep.NoDeadline)
				}
			})
		}
	}
}

func TestDetectWarnBefore(t *testing.T) {
	cases := []struct {
		warn                   time.Duration
		now                    time.Time
		wantExpired, wantExpir int
	}{
		{0, driftTestNow, 2, 0},
		{24 * time.Hour, driftTestNow, 2, 1}, // box[0] is exactly 24h away: expiring
		{70 * time.Hour, driftTestNow, 2, 1}, // soon is 71h away: just outside
		{71 * time.Hour, driftTestNow, 2, 2}, // exactly 71h away: expiring
		{72 * time.Hour, driftTestNow, 2, 2},
		{72 * time.Hour, driftTestTime(t, "2026-04-01T00:00:00Z"), 0, 0},
		{72 * time.Hour, driftTestTime(t, "2026-07-01T00:00:00Z"), 5, 0},
	}
	for _, c := range cases {
		rep, err := Detect(strings.NewReader(driftTestRead(t, "testdata/state_v4.tfstate")), c.now, c.warn)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Expired != c.wantExpired || rep.Expiring != c.wantExpir {
			t.Errorf("now=%s warn=%s: expired %d expiring %d, want %d %d", c.now, c.warn, rep.Expired, rep.Expiring, c.wantExpired, c.wantExpir)
		}
		if len(rep.Findings) != rep.Expired+rep.Expiring {
			t.Errorf("findings %d != expired+expiring", len(rep.Findings))
		}
	}
}

func driftTestRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// driftTestRun calls the CLI entry point the way main.go does.
func driftTestRun(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(stdin), &out, &errb, clock.NewFake(driftTestNow))
	return code, out.String(), errb.String()
}

func TestMainOutputAndExitCodes(t *testing.T) {
	state := driftTestRead(t, "testdata/state_v4.tfstate")
	show := driftTestRead(t, "testdata/show.json")
	clean := `{"version":4,"resources":[{"mode":"managed","type":"sbx_sandbox","name":"a","instances":[{"attributes":{"id":"x","expires_at":"2026-05-02T00:00:00Z"}}]}]}`
	cases := []struct {
		name     string
		stdin    string
		args     []string
		wantCode int
		wantOut  []string
		notOut   []string
	}{
		{"state file, table", "", []string{"testdata/state_v4.tfstate"}, ExitExpired,
			[]string{"RETENTION", "expired", `module.team["a"].module.inner.sbx_snapshot.snap["nightly"]`, "sn-nightly", "modal", "memory",
				"2026-04-30T00:00:00Z", "1d12h ago", "memory_snapshot", "sbx_sandbox.soon", "in 2d23h", "2 expired, 2 expiring within 72h0m0s, of 7 sandboxes, snapshots and templates"},
			[]string{"s3cr3t", "c-box1", "sn-weekly", "sn-data", "d-1"}},
		{"stdin, show -json", show, []string{"-"}, ExitExpired, []string{`module.team["a"].sbx_sandbox.box[0]`, "2 expired"}, []string{"s3cr3t"}},
		{"flags after the file", "", []string{"testdata/show.json", "--now", "2026-04-01T00:00:00Z"}, ExitClean,
			[]string{"0 expired, 0 expiring", "checked at 2026-04-01T00:00:00Z"}, []string{"RETENTION"}},
		{"expiring only exits 0", clean, []string{"-"}, ExitClean, []string{"expiring", "sbx_sandbox.a", "0 expired, 1 expiring"}, nil},
		{"warn-before in days", clean, []string{"--warn-before", "0d", "-"}, ExitClean, []string{"0 expired, 0 expiring within 0s"}, []string{"RETENTION"}},
		{"single-dash flags", state, []string{"-format=json", "-warn-before=1h", "-"}, ExitExpired, []string{`"findings"`, `"expiring": 0`}, nil},
		{"help", "", []string{"-h"}, ExitClean, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := driftTestRun(c.stdin, c.args...)
			if code != c.wantCode {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.wantCode, out, errOut)
			}
			for _, w := range c.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			for _, w := range c.notOut {
				if strings.Contains(out, w) {
					t.Errorf("stdout has %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestMainJSONSchema(t *testing.T) {
	code, out, errOut := driftTestRun("", "--format", "json", "testdata/state_v4.tfstate")
	if code != ExitExpired {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		SchemaVersion int                      `json:"schema_version"`
		InputFormat   string                   `json:"input_format"`
		Now           string                   `json:"now"`
		WarnBefore    string                   `json:"warn_before"`
		Findings      []map[string]interface{} `json:"findings"`
		Summary       map[string]int           `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if doc.SchemaVersion != 1 || doc.InputFormat != "state" || doc.Now != "2026-05-01T12:00:00Z" || doc.WarnBefore != "72h0m0s" {
		t.Errorf("header = %+v", doc)
	}
	wantSummary := map[string]int{"checked": 7, "expired": 2, "expiring": 2, "ok": 1, "no_deadline": 2}
	if !reflect.DeepEqual(doc.Summary, wantSummary) {
		t.Errorf("summary = %v, want %v", doc.Summary, wantSummary)
	}
	if len(doc.Findings) != 4 {
		t.Fatalf("findings = %d, want 4", len(doc.Findings))
	}
	keys := []string{"workspace", "address", "type", "id", "platform", "status", "expires_at", "seconds_left", "rule", "action", "retention_status", "recorded_retention_status"}
	for _, f := range doc.Findings {
		if len(f) != len(keys) {
			t.Errorf("finding has keys %v, want exactly %v", f, keys)
		}
		for _, k := range keys {
			if _, ok := f[k]; !ok {
				t.Errorf("finding lacks %q: %v", k, f)
			}
		}
	}
	first := doc.Findings[0]
	if first["address"] != `module.team["a"].module.inner.sbx_snapshot.snap["nightly"]` || first["seconds_left"] != float64(-36*3600) || first["retention_status"] != "expired" {
		t.Errorf("first finding = %v", first)
	}
	// An empty report still has a findings array, never null.
	_, out, _ = driftTestRun(`{"version":4,"resources":[]}`, "--format", "json", "-")
	if !strings.Contains(out, `"findings": []`) {
		t.Errorf("empty report: %s", out)
	}
}

func TestMainNowIsReproducible(t *testing.T) {
	args := []string{"--now", "2026-05-01T12:00:00Z", "--format", "json", "testdata/show.json"}
	var outs []string
	for _, now := range []time.Time{driftTestNow, driftTestNow.AddDate(3, 0, 0), {}} {
		var out, errb bytes.Buffer
		code := Main(args, strings.NewReader(""), &out, &errb, clock.NewFake(now))
		if code != ExitExpired {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		outs = append(outs, out.String())
	}
	if outs[0] != outs[1] || outs[1] != outs[2] {
		t.Errorf("--now output depends on the clock:\n%s\n%s", outs[0], outs[1])
	}
}

func TestMainBadInput(t *testing.T) {
	dir := t.TempDir()
	state := driftTestRead(t, "testdata/state_v4.tfstate")
	cases := []struct {
		name  string
		stdin string
		args  []string
		want  []string
	}{
		{"truncated", state[:1000], []string{"-"}, []string{"standard input", "truncated JSON", "byte 1000"}},
		{"truncated mid-string", `{"version":4,"resources":[{"type":"sbx_sa`, []string{"-"}, []string{"truncated JSON", "byte 41"}},
		{"truncated after key", `{"version":4,"resources"`, []string{"-"}, []string{"truncated JSON", "byte 24"}},
		{"empty", "", []string{"-"}, []string{"not a state file", "empty"}},
		{"whitespace", " \n\t", []string{"-"}, []string{"not a state file", "whitespace"}},
		{"array", `[1,2]`, []string{"-"}, []string{"not a state file", "top-level value is an array"}},
		{"string", `"version"`, []string{"-"}, []string{"not a state file", "a string"}},
		{"garbage", `hello`, []string{"-"}, []string{"not a state file", "'h'"}},
		{"other JSON object", `{"name":"pkg","dependencies":{}}`, []string{"-"}, []string{"not a state file", `neither "version"`}},
		{"version not a number", `{"name":"pkg","version":"1.0.0"}`, []string{"-"}, []string{"not a state file", `"version" is a string`}},
		{"old state version", `{"version":3,"modules":[]}`, []string{"-"}, []string{"unsupported state version 3", "version 4", "format_version 1.x"}},
		{"future state version", `{"version":5,"resources":[]}`, []string{"-"}, []string{"unsupported state version 5"}},
		{"show json v2", `{"format_version":"2.0","values":{}}`, []string{"-"}, []string{`unsupported format_version "2.0"`, "state format version 4"}},
		{"plan", `{"format_version":"1.2","planned_values":{},"resource_changes":[]}`, []string{"-"}, []string{"this is a plan"}},
		{"mixed layouts", `{"version":4,"values":{}}`, []string{"-"}, []string{"mixes the state file layout"}},
		{"resources not an array", `{"version":4,"resources":{}}`, []string{"-"}, []string{`"resources" is an object, want an array`}},
		{"trailing data", `{"version":4,"resources":[]} {}`, []string{"-"}, []string{"more data after the state object"}},
		{"syntax error", `{"version":4,"resources":[}`, []string{"-"}, []string{"invalid JSON at byte 26", "'}'"}},
		{"bad escape", `{"version":4,"x":"\q"}`, []string{"-"}, []string{"invalid JSON", "escape"}},
		{"bad number", `{"version":4,"x":01}`, []string{"-"}, []string{"invalid JSON", "'1'"}},
		{"attribute not a string", `{"version":4,"resources":[{"mode":"managed","type":"sbx_sandbox","name":"a","instances":[{"attributes":{"expires_at":17}}]}]}`,
			[]string{"-"}, []string{"sbx_sandbox.a", "expires_at is a number, want a string or null"}},
		{"bad expires_at", `{"version":4,"resources":[{"mode":"managed","type":"sbx_sandbox","name":"a","instances":[{"attributes":{"expires_at":"tomorrow"}}]}]}`,
			[]string{"-"}, []string{"sbx_sandbox.a", `expires_at "tomorrow" is not an RFC 3339 time`}},
		{"missing file", "", []string{filepath.Join(dir, "nope.tfstate")}, []string{"cannot read", "nope.tfstate", "no such file"}},
		{"directory", "", []string{dir}, []string{"cannot read", "directory"}},
		{"unknown flag", "", []string{"--frobnicate", "-"}, []string{"frobnicate"}},
		{"bad --now", "", []string{"--now", "yesterday", "-"}, []string{"invalid --now", "RFC 3339"}},
		{"bad --warn-before", "", []string{"--warn-before", "soon", "-"}, []string{"invalid --warn-before", "soon"}},
		{"negative --warn-before", "", []string{"--warn-before", "-1h", "-"}, []string{"--warn-before", "negative"}},
		{"bad --format", "", []string{"--format", "yaml", "-"}, []string{`invalid --format "yaml"`, "table or json"}},
		{"no state", "", nil, []string{"missing STATE"}},
		{"two states", "", []string{"a", "b"}, []string{"expected one STATE argument, got 2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := driftTestRun(c.stdin, c.args...)
			if code != ExitError {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, ExitError, out, errOut)
			}
			if out != "" {
				t.Errorf("bad input printed a report: %s", out)
			}
			for _, w := range c.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q: %s", w, errOut)
				}
			}
		})
	}
}

func TestParseInstancesBeforeHeader(t *testing.T) {
	// Terraform writes type and name first, but nothing in JSON forces it.
	in := `{"resources":[{"instances":[{"attributes":{"id":"late","expires_at":"2026-01-01T00:00:00Z","status":"paused"},"index_key":"k"}],
		"name":"x","type":"sbx_sandbox","mode":"managed","module":"module.m"},
		{"instances":[{"attributes":{"status":{"not":"ours"}}}],"name":"y","type":"other_thing","mode":"managed"}],"version":4}`
	var got []Instance
	format, err := Parse(strings.NewReader(in), func(i Instance) error { got = append(got, i); return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := []Instance{{Address: `module.m.sbx_sandbox.x["k"]`, Type: TypeSandbox, ID: "late", Status: "paused", ExpiresAt: "2026-01-01T00:00:00Z"}}
	if format != FormatState || !reflect.DeepEqual(got, want) {
		t.Errorf("got %s %+v, want %+v", format, got, want)
	}
}

func TestParseEscapedValues(t *testing.T) {
	in := `{"version":4,"resources":[{"mode":"managed","type":"sbx_sandbox","name":"a","instances":[{"index_key":"caf\u00e9 \"q\"",
		"attributes":{"id":"x\ty\u0041","platform":"\u0064ocker"}}]}]}`
	for _, r := range []func() *strings.Reader{func() *strings.Reader { return strings.NewReader(in) }} {
		var got []Instance
		if _, err := Parse(iotest.OneByteReader(r()), func(i Instance) error { got = append(got, i); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Address != `sbx_sandbox.a["café \"q\""]` || got[0].ID != "x\tyA" || got[0].Platform != "docker" {
			t.Errorf("got %+v", got)
		}
	}
}

package drift

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// driftTestTemplates is a state holding, besides a sandbox, three
// templates: one past its deactivation deadline, one near it, one on a
// platform with no template rule (no deadline); and a volume, which has no
// deadline and is not checked.
const driftTestTemplates = `{"version":4,"resources":[
 {"mode":"managed","type":"sbx_template","name":"stale","instances":[{"attributes":{
   "id":"snap-stale","name":"stale","platform":"daytona","status":"ready","last_used_at":"2026-04-10T08:00:00Z",
   "expires_at":"2026-04-24T08:00:00Z","retention_rule":"unused_template","retention_action":"deactivate","retention_status":"ok",
   "labels":{"team":"a"},"cpu_count":2,"timeouts":null}}]},
 {"module":"module.agents","mode":"managed","type":"sbx_template","name":"base","instances":[{"index_key":"py","attributes":{
   "id":"snap-py","platform":"daytona","status":"ready","last_used_at":null,"created_at":"2026-04-18T00:00:00Z",
   "expires_at":"2026-05-02T00:00:00Z","retention_rule":"unused_template","retention_action":"deactivate","retention_status":"expiring"}}]},
 {"mode":"managed","type":"sbx_template","name":"local","instances":[{"attributes":{
   "id":"sbx/local:latest","platform":"docker","status":"ready","expires_at":null,"retention_rule":null,"retention_action":null,"retention_status":null}}]},
 {"mode":"managed","type":"sbx_volume","name":"v","instances":[{"attributes":{"id":"v","expires_at":"2026-01-01T00:00:00Z"}}]},
 {"mode":"managed","type":"sbx_sandbox","name":"box","instances":[{"attributes":{
   "id":"c-box","platform":"docker","status":"running","expires_at":"2026-06-01T00:00:00Z","retention_rule":"running_sandbox","retention_action":"kill","retention_status":"ok"}}]}
]}`

// driftTestTemplatesShow is the same state as terraform show -json writes it.
const driftTestTemplatesShow = `{"format_version":"1.0","terraform_version":"1.11.4","values":{"root_module":{"resources":[
 {"address":"sbx_template.stale","mode":"managed","type":"sbx_template","name":"stale","values":{
   "id":"snap-stale","platform":"daytona","status":"ready","expires_at":"2026-04-24T08:00:00Z",
   "retention_rule":"unused_template","retention_action":"deactivate","retention_status":"ok"}},
 {"address":"sbx_template.local","mode":"managed","type":"sbx_template","name":"local","values":{
   "id":"sbx/local:latest","platform":"docker","status":"ready","expires_at":null}},
 {"address":"sbx_volume.v","mode":"managed","type":"sbx_volume","name":"v","values":{"id":"v","expires_at":"2026-01-01T00:00:00Z"}},
 {"address":"sbx_sandbox.box","mode":"managed","type":"sbx_sandbox","name":"box","values":{
   "id":"c-box","platform":"docker","status":"running","expires_at":"2026-06-01T00:00:00Z","retention_rule":"running_sandbox","retention_action":"kill","retention_status":"ok"}}],
 "child_modules":[{"address":"module.agents","resources":[
 {"address":"module.agents.sbx_template.base[\"py\"]","mode":"managed","type":"sbx_template","name":"base","index":"py","values":{
   "id":"snap-py","platform":"daytona","status":"ready","expires_at":"2026-05-02T00:00:00Z",
   "retention_rule":"unused_template","retention_action":"deactivate","retention_status":"expiring"}}]}]}}}`

// TestDetectTemplates: the detector judges sbx_template deadlines as it
// judges a box's or a snapshot's (a template past its deactivation
// deadline is expired, exit 2; one within --warn-before is expiring), a
// template without a deadline counts as checked, and volumes are not
// looked at.
func TestDetectTemplates(t *testing.T) {
	want := []Finding{
		{Address: "sbx_template.stale", Type: TypeTemplate, ID: "snap-stale", Platform: "daytona", Status: "ready",
			ExpiresAt: driftTestTime(t, "2026-04-24T08:00:00Z"), Rule: "unused_template", Action: "deactivate",
			RetentionStatus: "expired", Recorded: "ok"},
		{Address: `module.agents.sbx_template.base["py"]`, Type: TypeTemplate, ID: "snap-py", Platform: "daytona", Status: "ready",
			ExpiresAt: driftTestTime(t, "2026-05-02T00:00:00Z"), Rule: "unused_template", Action: "deactivate",
			RetentionStatus: "expiring", Recorded: "expiring"},
	}
	for name, in := range map[string]string{"state": driftTestTemplates, "show-json": driftTestTemplatesShow} {
		t.Run(name, func(t *testing.T) {
			rep, err := Detect(strings.NewReader(in), driftTestNow, 72*time.Hour)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rep.Findings, want) {
				t.Errorf("findings:\n got %+v\nwant %+v", rep.Findings, want)
			}
			if rep.Checked != 4 || rep.Expired != 1 || rep.Expiring != 1 || rep.OK != 1 || rep.NoDeadline != 1 {
				t.Errorf("summary = checked %d expired %d expiring %d ok %d none %d, want 4 1 1 1 1",
					rep.Checked, rep.Expired, rep.Expiring, rep.OK, rep.NoDeadline)
			}
		})
	}

	code, out, errOut := driftTestRun(driftTestTemplates, "-")
	if code != ExitExpired {
		t.Fatalf("exit %d, want %d (a template past its deadline)\nstdout: %s\nstderr: %s", code, ExitExpired, out, errOut)
	}
	for _, w := range []string{"sbx_template.stale", "snap-stale", "daytona", "unused_template", "deactivate", "7d4h ago",
		`module.agents.sbx_template.base["py"]`, "in 12h0m", "1 expired, 1 expiring within 72h0m0s, of 4 sandboxes, snapshots and templates"} {
		if !strings.Contains(out, w) {
			t.Errorf("table lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "sbx/local") || strings.Contains(out, "sbx_volume") {
		t.Errorf("table shows a template without a deadline or a volume:\n%s", out)
	}

	code, out, _ = driftTestRun(driftTestTemplates, "--format", "json", "-")
	var doc struct {
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != ExitExpired {
		t.Fatalf("json: exit %d, %v:\n%s", code, err, out)
	}
	if len(doc.Findings) != 2 || doc.Findings[0]["type"] != TypeTemplate || doc.Findings[0]["action"] != "deactivate" ||
		doc.Findings[0]["status"] != "ready" {
		t.Errorf("json findings = %v", doc.Findings)
	}
}

package orphans

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

const e2bKey = "e2b_orphans_test_key_0123456789"

// TestOrphansE2BFake runs the command against the strict E2B fake: boxes
// made through the platform with marks for owners a and b and with none,
// and a box the provider did not make; a state holds one of a's. With
// --owner a exactly a's other box is an orphan, and the report says E2B
// templates, volumes and snapshots cannot be checked; without --owner every
// box the provider made and no state holds is one; --delete kills a's
// orphan and nothing else, and a second run finds none.
func TestOrphansE2BFake(t *testing.T) {
	fake := e2bfake.New(t, e2bfake.Options{APIKey: e2bKey})
	t.Cleanup(func() {
		if v := fake.SpecViolations(); len(v) > 0 {
			t.Errorf("requests or responses broke the E2B spec:\n%v", v)
		}
	})
	ctx := context.Background()
	p, err := e2b.New(e2b.Config{
		APIKey: e2bKey, APIURL: fake.URL(), Tier: e2b.TierPro,
		Sleep:        func(ctx context.Context, _ time.Duration) error { return ctx.Err() },
		PollInterval: time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := p.Templates().Create(ctx, platform.TemplateSpec{Name: "base", Dockerfile: "FROM alpine\n", Marks: platform.NewMarks("a")})
	if err != nil {
		t.Fatalf("template: %v", err)
	}
	box := func(owner string) string {
		t.Helper()
		sb, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{TemplateID: tpl.ID, State: platform.StateRunning, Marks: platform.NewMarks(owner)})
		if err != nil {
			t.Fatalf("sandbox of owner %q: %v", owner, err)
		}
		return sb.ID
	}
	heldA, orphanA, boxB, boxNone := box("a"), box("a"), box("b"), box("")
	foreign := e2bPostSandbox(t, fake.URL(), tpl.ID, map[string]string{"team": "ml"})

	dir := t.TempDir()
	state := writeFile(t, dir, "terraform.tfstate", `{"version":4,"resources":[
	  {"mode":"managed","type":"sbx_template","name":"t","instances":[{"attributes":{"id":"`+tpl.ID+`"}}]},
	  {"mode":"managed","type":"sbx_sandbox","name":"box","instances":[{"attributes":{"id":"`+heldA+`","platform":"e2b"}}]}]}`)
	env := map[string]string{"E2B_API_KEY": e2bKey, "E2B_API_URL": fake.URL()}

	r := run(t, env, "", "--platform", "e2b", "--owner", "a", "--format", "json", state)
	if r.code != ExitOrphans {
		t.Fatalf("exit %d, want 2\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	rep := jsonReportOf(t, r)
	if len(rep.Orphans) != 1 || rep.Orphans[0].ID != orphanA || rep.Orphans[0].Kind != "sandbox" || rep.Orphans[0].Owner != "a" ||
		rep.Orphans[0].CreateToken == "" || rep.Orphans[0].Result != "" {
		t.Errorf("orphans = %+v, want only %s", rep.Orphans, orphanA)
	}
	if rep.Owner == nil || *rep.Owner != "a" || rep.AllOwners || rep.Platform != "e2b" {
		t.Errorf("scope: owner %v all %v platform %s", rep.Owner, rep.AllOwners, rep.Platform)
	}
	if s := rep.Summary; s.Checked != 2 || s.Held != 1 || s.Orphans != 1 || s.OtherOwners != 2 {
		t.Errorf("summary = %+v, want 2 checked, 1 held, 1 orphan, 2 of other owners (b, none)", s)
	}
	var unchecked []string
	for _, u := range rep.Unchecked {
		unchecked = append(unchecked, u.Kind)
	}
	if !slices.Equal(unchecked, []string{"template", "volume", "snapshot"}) {
		t.Errorf("unchecked = %v, want template, volume, snapshot", rep.Unchecked)
	}

	// The table says the same, for people.
	r = run(t, env, "", "--platform", "e2b", "--owner", "a", state)
	for _, want := range []string{`the objects of owner "a"`, orphanA, "Not checked on e2b:", "template: E2B templates carry no labels",
		"volume: E2B volumes carry no labels", "snapshot: E2B snapshots carry no labels", "1 orphan of 2 objects checked on e2b", "--delete"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("table lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, notWant := range []string{heldA, boxB, boxNone, foreign} {
		if strings.Contains(r.stdout, notWant) {
			t.Errorf("table lists %s:\n%s", notWant, r.stdout)
		}
	}

	// Without --owner: every box the provider made that the state does not hold.
	r = run(t, env, "", "--platform", "e2b", "--format", "json", state)
	rep = jsonReportOf(t, r)
	var got []string
	for _, o := range rep.Orphans {
		got = append(got, o.ID)
	}
	slices.Sort(got)
	want := []string{orphanA, boxB, boxNone}
	slices.Sort(want)
	if r.code != ExitOrphans || !slices.Equal(got, want) || !rep.AllOwners || rep.Owner != nil {
		t.Errorf("without --owner: exit %d, orphans %v, want %v (all owners)", r.code, got, want)
	}
	if r := run(t, env, "", "--platform", "e2b", state); !strings.Contains(r.stdout, "every object the provider made, whatever its owner (no --owner given)") {
		t.Errorf("the table does not say every owner was considered:\n%s", r.stdout)
	}

	// A box is removed only while it carries the marks it was listed with.
	stale := platform.ManagedObject{Kind: platform.KindSandbox, ID: boxB, Owner: "b", CreateToken: "not-its-token"}
	if err := p.RemoveManaged(ctx, stale); !errors.Is(err, platform.ErrConflict) {
		t.Errorf("removing %s listed with another token: %v, want a conflict", boxB, err)
	}
	if _, ok := fake.Sandbox(boxB); !ok {
		t.Fatalf("%s was removed under a token it does not carry", boxB)
	}

	// --delete removes a's orphan only.
	r = run(t, env, "", "--platform", "e2b", "--owner", "a", "--delete", "--all-states", "--format", "json", state)
	rep = jsonReportOf(t, r)
	if r.code != ExitOrphans || len(rep.Orphans) != 1 || rep.Orphans[0].Result != "removed" || rep.Summary.Removed != 1 {
		t.Fatalf("--delete: exit %d, report %+v\nstderr: %s", r.code, rep, r.stderr)
	}
	if _, ok := fake.Sandbox(orphanA); ok {
		t.Errorf("%s is still on the fake after --delete", orphanA)
	}
	for _, id := range []string{heldA, boxB, boxNone, foreign} {
		if _, ok := fake.Sandbox(id); !ok {
			t.Errorf("%s was removed, want it left", id)
		}
	}
	if r := run(t, env, "", "--platform", "e2b", "--owner", "a", state); r.code != ExitClean || !strings.Contains(r.stdout, "0 orphans of 1 object checked") {
		t.Errorf("after --delete: exit %d, want 0\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// e2bPostSandbox makes a box on the fake directly, with the metadata given:
// a box the provider did not make.
func e2bPostSandbox(t *testing.T, url, templateID string, metadata map[string]string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"templateID": templateID, "timeout": 300, "metadata": metadata})
	req, err := http.NewRequest("POST", url+"/sandboxes", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", e2bKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var created struct {
		SandboxID string `json:"sandboxID"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil || resp.StatusCode != http.StatusCreated || created.SandboxID == "" {
		t.Fatalf("POST /sandboxes: %d %v", resp.StatusCode, err)
	}
	return created.SandboxID
}

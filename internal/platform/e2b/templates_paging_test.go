package e2b

import (
	"context"
	"testing"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// e2bPagingPageSize is the fake's page of builds, as E2B's: 100 by default
// and at most.
const e2bPagingPageSize = 100

// e2bPagingPlatform is a platform over a fake with a settable clock.
func e2bPagingPlatform(t *testing.T) (*Platform, *e2bfake.Server, *clock.Fake) {
	t.Helper()
	clock := clock.NewFake(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	p, fake := e2bTestPlatform(t, e2bfake.Options{Clock: clock, BuildPolls: 1})
	return p, fake, clock
}

// e2bPagingFailedRebuilds adds n failed builds to the template, a minute apart.
func e2bPagingFailedRebuilds(ctx context.Context, t *testing.T, p *Platform, fake *e2bfake.Server, clock *clock.Fake, id string, spec platform.TemplateSpec, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		clock.Advance(time.Minute)
		fake.FailNextBuild(id, "step 1 exited with 1")
		if _, err := p.Templates().Rebuild(ctx, id, spec); err == nil {
			t.Fatalf("rebuild %d succeeded, want the injected failure", i)
		}
	}
}

// Builds of a template come a page at a time, newest first; the ready build
// Get reports sits behind a full page of newer failed builds.
func TestTemplateGetReadsEveryPageOfBuilds(t *testing.T) {
	p, fake, clock := e2bPagingPlatform(t)
	ctx := context.Background()
	spec := platform.TemplateSpec{Name: "paged", Image: "alpine:3"}
	first, err := p.Templates().Create(ctx, spec)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	clock.Advance(time.Minute)
	second, err := p.Templates().Rebuild(ctx, first.ID, spec)
	if err != nil {
		t.Fatalf("Rebuild: %v", err)
	}
	e2bPagingFailedRebuilds(ctx, t, p, fake, clock, first.ID, spec, e2bPagingPageSize)

	before := fake.Requests("GET /templates/{templateID}")
	got, err := p.Templates().Get(ctx, first.ID)
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if got.BuildID != second.BuildID || got.Status != "ready" {
		t.Errorf("Get = build %s (%s), want the newest ready build %s (first build %s)", got.BuildID, got.Status, second.BuildID, first.BuildID)
	}
	// 102 builds at 100 a page: two pages.
	if n := fake.Requests("GET /templates/{templateID}") - before; n != 2 {
		t.Errorf("Get read %d pages of builds, want 2", n)
	}
}

// A rebuild request whose answer is lost is found again among the template's
// builds, on whatever page it lands: here E2B's clock lags, so the build it
// made is the oldest by timestamp and comes on the last page.
func TestTemplateLostRebuildFindsItsBuildOnALaterPage(t *testing.T) {
	p, fake, clock := e2bPagingPlatform(t)
	ctx := context.Background()
	spec := platform.TemplateSpec{Name: "paged", Image: "alpine:3"}
	first, err := p.Templates().Create(ctx, spec)
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	e2bPagingFailedRebuilds(ctx, t, p, fake, clock, first.ID, spec, e2bPagingPageSize)

	clock.Set(time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC))
	fake.Inject("POST /v3/templates", e2bfake.Fault{DropAfterHandling: true})
	again, err := p.Templates().Rebuild(ctx, first.ID, spec)
	if err != nil {
		t.Fatalf("Rebuild after a lost answer: %v", err)
	}
	if again.ID != first.ID {
		t.Errorf("Rebuild after a lost answer landed on template %s, want %s", again.ID, first.ID)
	}
	want := e2bPagingPageSize + 2 // the first build, the failed ones, the lost request's
	if n := fake.Requests("POST /v3/templates"); n != want {
		t.Errorf("build requests = %d, want %d (the lost one not repeated)", n, want)
	}
	views := fake.Templates()
	if len(views) != 1 {
		t.Fatalf("templates = %d, want 1", len(views))
	}
	builds := views[0].Builds
	if len(builds) != want {
		t.Fatalf("builds = %d, want %d: the lost request's build was not found and another was requested", len(builds), want)
	}
	for _, b := range builds {
		if b.Status == "waiting" {
			t.Errorf("build %s was requested and abandoned", b.ID)
		}
	}
	if last := builds[len(builds)-1]; last.Status != "ready" {
		t.Errorf("the lost request's build %s is %s, want it built (ready)", last.ID, last.Status)
	}
}

// newestBuild judges by timestamps, never by where a build sits in a page.
func TestNewestBuildByTimestamps(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	b := func(id, status string, created, updated time.Duration) templateBuildRecord {
		return templateBuildRecord{BuildID: id, Status: status, CreatedAt: t0.Add(created), UpdatedAt: t0.Add(updated)}
	}
	tests := []struct {
		name   string
		builds []templateBuildRecord
		status string
		want   string
	}{
		{"oldest first", []templateBuildRecord{b("a", "ready", 0, 0), b("b", "ready", time.Hour, time.Hour)}, "ready", "b"},
		{"newest first", []templateBuildRecord{b("b", "ready", time.Hour, time.Hour), b("a", "ready", 0, 0)}, "ready", "b"},
		{"shuffled", []templateBuildRecord{b("a", "ready", time.Minute, time.Minute), b("c", "ready", time.Hour, time.Hour), b("b", "ready", 0, 0)}, "ready", "c"},
		{"status filters", []templateBuildRecord{b("a", "ready", 0, 0), b("b", "error", time.Hour, time.Hour)}, "ready", "a"},
		{"any status", []templateBuildRecord{b("a", "ready", 0, 0), b("b", "error", time.Hour, time.Hour)}, "", "b"},
		{"same creation: later update wins", []templateBuildRecord{b("b", "ready", 0, time.Hour), b("a", "ready", 0, time.Minute)}, "ready", "b"},
		{"same creation, listed second", []templateBuildRecord{b("a", "ready", 0, time.Minute), b("b", "ready", 0, time.Hour)}, "ready", "b"},
		{"none", []templateBuildRecord{b("a", "error", 0, 0)}, "waiting", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if nb := newestBuild(tt.builds, tt.status); nb != nil {
				got = nb.BuildID
			}
			if got != tt.want {
				t.Errorf("newestBuild = %q, want %q", got, tt.want)
			}
		})
	}
}

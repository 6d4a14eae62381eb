package e2b

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// templates are E2B templates: a named template with builds; the provider
// starts a new build of the same template for every change.
type templates struct{ p *Platform }

var _ platform.TemplateSpecValidator = (*Platform)(nil)

// ValidateTemplateSpec reports, at plan time, what E2B cannot build: a
// Dockerfile instruction it cannot express (naming the line). Settings the
// capability matrix describes (labels, sizes) are checked by the resource
// from the matrix, so they are not reported twice.
func (p *Platform) ValidateTemplateSpec(spec platform.TemplateSpec) error {
	if spec.Dockerfile != "" {
		if _, err := translateSpec(spec); err != nil {
			return err
		}
	}
	return nil
}

// translateSpec translates spec's Dockerfile: on its base image, or on the
// template spec.FromTemplate names.
func translateSpec(spec platform.TemplateSpec) (*buildPlan, error) {
	if spec.FromTemplate != "" {
		return translateOnTemplate(spec.Dockerfile)
	}
	return translateDockerfile(spec.Dockerfile)
}

// shortName strips the team namespace and tag from an E2B name
// ("team/name:tag" → "name").
func shortName(full string) string {
	if i := strings.LastIndex(full, "/"); i >= 0 {
		full = full[i+1:]
	}
	if i := strings.Index(full, ":"); i >= 0 {
		full = full[:i]
	}
	return full
}

// Create builds a new template. E2B keeps template names unique per team
// and adds a build to the template already holding a name, so a name in use
// (another state's template, one made by hand or left by a killed apply) is
// a NotOwnedError: building would take that template over. E2B templates
// carry no labels to prove who made them.
func (t *templates) Create(ctx context.Context, spec platform.TemplateSpec) (*platform.Template, error) {
	if err := t.p.ValidateTemplateSpec(spec); err != nil {
		return nil, err
	}
	taken, err := t.findByName(ctx, spec.Name)
	if err != nil {
		return nil, fmt.Errorf("looking for a template named %q: %w", spec.Name, err)
	}
	if taken != nil {
		return nil, &platform.NotOwnedError{Kind: "template", Name: spec.Name, ID: taken.TemplateID,
			Detail: "E2B would add this build to the existing template"}
	}
	return t.build(ctx, "", spec)
}

// Rebuild starts a new build of the template, keeping its id.
func (t *templates) Rebuild(ctx context.Context, id string, spec platform.TemplateSpec) (*platform.Template, error) {
	return t.build(ctx, id, spec)
}

// build requests a build under spec.Name, uploads the layers of its COPY
// steps, starts the build and follows it to the end. wantID, when set, is
// the id the build must land on. Once the template exists, a failure
// returns it with the error, so the caller can keep it (a failed first
// build is saved tainted, not orphaned). Errors do not repeat the
// template's name: the caller names it.
func (t *templates) build(ctx context.Context, wantID string, spec platform.TemplateSpec) (*platform.Template, error) {
	if err := t.p.ValidateTemplateSpec(spec); err != nil {
		return nil, err
	}
	if len(spec.Labels) > 0 {
		// Refused at plan time from the capability matrix (TemplateLabels);
		// this guards callers that skip the plan.
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "template labels (E2B templates have only a name)"}
	}
	start, err := buildStartRequest(spec)
	if err != nil {
		return nil, err
	}
	if spec.DiskMB != 0 {
		return nil, &platform.UnsupportedError{Platform: "e2b", Capability: "template disk size (disk_mb)"}
	}
	// The files each COPY step takes are found and hashed before anything
	// is made: a missing source fails with nothing left behind.
	layers, err := copyLayers(spec.ContextDir, start.Steps)
	if err != nil {
		return nil, err
	}
	reqd, err := t.requestBuild(ctx, wantID, spec)
	if err != nil {
		return nil, err
	}
	if wantID != "" && reqd.TemplateID != wantID {
		return nil, fmt.Errorf("E2B put the new build on template %s, not %s; was the template renamed outside Terraform?",
			reqd.TemplateID, wantID)
	}
	// From here on the template exists.
	failed := func(err error) (*platform.Template, error) {
		return t.afterFailure(ctx, reqd, spec), err
	}
	if err := t.uploadLayers(ctx, reqd.TemplateID, layers); err != nil {
		return failed(err)
	}
	path := "/v2/templates/" + pathID(reqd.TemplateID) + "/builds/" + pathID(reqd.BuildID)
	if _, err := t.p.do(ctx, "POST", path, nil, start, nil); err != nil {
		return failed(fmt.Errorf("starting build %s: %w", reqd.BuildID, err))
	}
	if err := t.follow(ctx, spec.Name, reqd.TemplateID, reqd.BuildID, start.Steps); err != nil {
		return failed(err)
	}
	tpl, err := t.Get(ctx, reqd.TemplateID)
	if err != nil {
		return failed(err)
	}
	if spec.Public != nil && *spec.Public != tpl.Public {
		path := "/v2/templates/" + pathID(reqd.TemplateID)
		if _, err := t.p.do(ctx, "PATCH", path, nil, templateUpdate{Public: *spec.Public}, nil); err != nil {
			return failed(fmt.Errorf("setting public = %t: %w", *spec.Public, err))
		}
		tpl.Public = *spec.Public
	}
	// E2B does not report the commands back; they are what was built.
	tpl.StartCmd, tpl.ReadyCmd = spec.StartCmd, spec.ReadyCmd
	return tpl, nil
}

// afterFailure is the template a failed build leaves: as E2B reports it,
// else what is known of it (the read may fail for the reason the build did).
func (t *templates) afterFailure(ctx context.Context, reqd templateCreateResponse, spec platform.TemplateSpec) *platform.Template {
	tpl, err := t.Get(ctx, reqd.TemplateID)
	if err != nil {
		tpl = &platform.Template{ID: reqd.TemplateID, Name: spec.Name, BuildID: reqd.BuildID, Status: "error", Labels: map[string]string{}}
	}
	tpl.StartCmd, tpl.ReadyCmd = spec.StartCmd, spec.ReadyCmd
	return tpl
}

// buildStartRequest is the TemplateBuildStartV2 body for spec.
func buildStartRequest(spec platform.TemplateSpec) (templateBuildStart, error) {
	start := templateBuildStart{StartCmd: spec.StartCmd, ReadyCmd: spec.ReadyCmd, Steps: []templateStep{}}
	if spec.Image != "" {
		start.FromImage = spec.Image
		return start, nil
	}
	plan, err := translateSpec(spec)
	if err != nil {
		return templateBuildStart{}, err
	}
	start.FromImage, start.Steps = plan.FromImage, plan.Steps
	if spec.FromTemplate != "" {
		// TemplateBuildStartV2 takes fromImage or fromTemplate, not both.
		start.FromImage, start.FromTemplate = "", spec.FromTemplate
	}
	if start.Steps == nil {
		start.Steps = []templateStep{}
	}
	return start, nil
}

// maxBuildRequests bounds how often a build request whose answer was lost
// is sent again (only ever to a template known to be this one's).
const maxBuildRequests = 3

// requestBuild asks for a new build under spec.Name (POST /v3/templates).
// If the answer is lost, it looks for the waiting build the request made,
// with backoff (E2B lists a new template only after a delay): on template
// wantID for a rebuild, else on the template listed under the name (Create
// has checked the name was free, so a template found under it is this
// request's). It asks again only when the template is known and no waiting
// build appeared on it within the bound: the request can then only add a
// build to that template. A new template not listed within the bound fails
// the create: it may exist, and by then the name may be someone else's.
func (t *templates) requestBuild(ctx context.Context, wantID string, spec platform.TemplateSpec) (templateCreateResponse, error) {
	body := templateCreateRequest{Name: spec.Name, CPUCount: spec.CPUCount, MemoryMB: spec.MemoryMB}
	// known is the template the request lands on, once that is known.
	known := wantID
	var lastErr error
	for attempt := 0; attempt < maxBuildRequests; attempt++ {
		var out templateCreateResponse
		_, err := t.p.do(ctx, "POST", "/v3/templates", nil, body, &out)
		if err == nil {
			return out, nil
		}
		if !errors.Is(err, rest.ErrMaybeApplied) {
			return out, fmt.Errorf("requesting a build: %w", err)
		}
		lastErr = err
		templateID := known
		var made templateCreateResponse
		ok, waited, ferr := t.p.findLost(ctx, func(ctx context.Context) (bool, error) {
			if known == "" {
				found, lerr := t.findByName(ctx, spec.Name)
				if lerr != nil || found == nil {
					return false, lerr
				}
				templateID = found.TemplateID
			}
			w, lerr := t.read(ctx, templateID)
			if lerr != nil {
				return false, lerr
			}
			if b := newestBuild(w.Builds, "waiting"); b != nil {
				made = templateCreateResponse{TemplateID: templateID, BuildID: b.BuildID}
				return true, nil
			}
			return false, nil
		})
		switch {
		case ok:
			tflog.Info(ctx, "the template build request's answer was lost; found the build it made",
				map[string]any{"template": made.TemplateID, "build": made.BuildID, "waited": waited.String()})
			return made, nil
		case ferr != nil && templateID != "":
			return out, lostCreate(fmt.Sprintf("build of template %q", spec.Name), err, waited, ferr,
				fmt.Sprintf("If it was made, template %s holds a build waiting that was never started; apply again to build anew.", templateID))
		case templateID == "":
			return out, lostCreate(fmt.Sprintf("template %q", spec.Name), err, waited, ferr, fmt.Sprintf(
				"If it was made, E2B will list a template named %q with a build that was never started (the sbx_template data source "+
					"finds it by name): delete it, then apply again; until it is deleted, a create under its name fails naming it.", spec.Name))
		}
		// The template is known but the request's build did not land:
		// asking again under the same name adds a build to it.
		known = templateID
	}
	return templateCreateResponse{}, fmt.Errorf("requesting a build: %w", lastErr)
}

// newestBuild returns the most recent build with the status ("" = any),
// judged by its timestamps (created, then last updated): the API promises no
// order of builds, within a page or across pages.
func newestBuild(builds []templateBuildRecord, status string) *templateBuildRecord {
	var best *templateBuildRecord
	for i := range builds {
		b := &builds[i]
		if status != "" && b.Status != status {
			continue
		}
		if best == nil || b.CreatedAt.After(best.CreatedAt) ||
			(b.CreatedAt.Equal(best.CreatedAt) && b.UpdatedAt.After(best.UpdatedAt)) {
			best = b
		}
	}
	return best
}

// read returns a template with all its builds. GET /templates/{id} pages
// its builds, so every page is read: the newest ready build may be on any
// of them. The template's own fields come from the first page.
func (t *templates) read(ctx context.Context, id string) (templateWithBuilds, error) {
	var w templateWithBuilds
	first := true
	err := readPages(ctx, t.p, "/templates/"+pathID(id), nil, func(page templateWithBuilds) int {
		if first {
			w, first = page, false
		} else {
			w.Builds = append(w.Builds, page.Builds...)
		}
		return len(page.Builds)
	})
	return w, err
}

// findByName returns the template named name, or nil.
func (t *templates) findByName(ctx context.Context, name string) (*templateListed, error) {
	rows, err := listAll[templateListed](ctx, t.p, "/v2/templates", nil)
	if err != nil {
		return nil, err
	}
	for i := range rows {
		for _, n := range rows[i].Names {
			if shortName(n) == name {
				return &rows[i], nil
			}
		}
	}
	return nil, nil
}

// buildLogTail is how many of a failed build's last log lines its error
// shows.
const buildLogTail = 10

// follow polls the build until it is ready or failed, writing its log
// lines to the provider log as they arrive. A failed build's error names
// the failing step (with its instruction) and the last lines of its log.
func (t *templates) follow(ctx context.Context, name, templateID, buildID string, steps []templateStep) error {
	path := "/templates/" + pathID(templateID) + "/builds/" + pathID(buildID) + "/status"
	offset := 0
	var tail []string
	wait := min(firstBuildPoll, t.p.poll)
	for {
		var info templateBuildInfo
		q := map[string][]string{"logsOffset": {fmt.Sprint(offset)}}
		if _, err := t.p.do(ctx, "GET", path, q, nil, &info); err != nil {
			return fmt.Errorf("reading the status of build %s: %w", buildID, err)
		}
		for _, e := range info.LogEntries {
			tflog.Info(ctx, "e2b build: "+e.Message, map[string]any{"template": name, "level": e.Level, "step": e.Step})
			tail = append(tail, e.Message)
			if len(tail) > buildLogTail {
				tail = tail[1:]
			}
		}
		offset += len(info.LogEntries)
		switch info.Status {
		case "ready":
			return nil
		case "error":
			return buildFailure(buildID, info, steps, tail)
		}
		if err := t.p.sleep(ctx, wait); err != nil {
			return fmt.Errorf("waiting for build %s: %w", buildID, err)
		}
		wait = min(2*wait, t.p.poll)
	}
}

// firstBuildPoll is the wait before a build's second status read; each
// wait after it doubles, up to the platform's poll interval. A build whose
// layers E2B has cached is ready within a second, and a fixed interval
// made every apply that built one wait the whole of it; a long build costs
// three reads more than at the fixed interval.
const firstBuildPoll = 250 * time.Millisecond

// buildFailure describes a failed build: the step E2B names (its number
// and instruction: E2B numbers the request's steps from 1, besides "base"
// and "finalize"), its reason and the last lines of the build log.
func buildFailure(buildID string, info templateBuildInfo, steps []templateStep, tail []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "build %s failed", buildID)
	msg := "E2B gave no reason"
	if info.Reason != nil {
		if info.Reason.Step != "" {
			fmt.Fprintf(&b, " at step %s", info.Reason.Step)
			if n, err := strconv.Atoi(info.Reason.Step); err == nil && n >= 1 && n <= len(steps) {
				st := steps[n-1]
				fmt.Fprintf(&b, " (%s %s)", st.Type, strings.TrimSpace(strings.Join(st.Args, " ")))
			}
		}
		if info.Reason.Message != "" {
			msg = info.Reason.Message
		}
	}
	fmt.Fprintf(&b, ": %s", msg)
	if len(tail) > 0 {
		fmt.Fprintf(&b, "\nLast lines of the build log:\n  %s", strings.Join(tail, "\n  "))
	}
	return errors.New(b.String())
}

// Get implements platform.TemplateService.
func (t *templates) Get(ctx context.Context, id string) (*platform.Template, error) {
	w, err := t.read(ctx, id)
	if err != nil {
		return nil, restplatform.NotFound(err, "template", id)
	}
	return templateFromBuilds(w), nil
}

// templateFromBuilds normalizes a template: its build, status and size are
// those of its newest ready build, else its newest build.
func templateFromBuilds(w templateWithBuilds) *platform.Template {
	tpl := &platform.Template{ID: w.TemplateID, CreatedAt: w.CreatedAt, Public: w.Public, Labels: map[string]string{}}
	if len(w.Names) > 0 {
		tpl.Name = shortName(w.Names[0])
	}
	b := newestBuild(w.Builds, "ready")
	if b == nil {
		b = newestBuild(w.Builds, "")
	}
	if b != nil {
		tpl.BuildID, tpl.Status, tpl.CPUCount, tpl.MemoryMB = b.BuildID, b.Status, b.CPUCount, b.MemoryMB
	}
	return tpl
}

// List implements platform.TemplateService; every team template counts,
// since E2B templates cannot be labelled as the provider's.
func (t *templates) List(ctx context.Context, filter platform.TemplateFilter) ([]platform.Template, error) {
	rows, err := listAll[templateListed](ctx, t.p, "/v2/templates", nil)
	if err != nil {
		return nil, err
	}
	var out []platform.Template
	for _, r := range rows {
		tpl := platform.Template{ID: r.TemplateID, BuildID: r.BuildID, Status: r.BuildStatus, CPUCount: r.CPUCount,
			MemoryMB: r.MemoryMB, CreatedAt: r.CreatedAt, Labels: map[string]string{}}
		if len(r.Names) > 0 {
			tpl.Name = shortName(r.Names[0])
		}
		if filter.Name != "" && tpl.Name != filter.Name {
			continue
		}
		out = append(out, tpl)
	}
	return out, nil
}

// Delete implements platform.TemplateService.
func (t *templates) Delete(ctx context.Context, id string) error {
	_, err := t.p.do(ctx, "DELETE", "/templates/"+pathID(id), nil, nil, nil)
	if rest.IsNotFound(err) {
		return nil
	}
	return err
}

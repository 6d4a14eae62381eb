package daytona

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	dockerfileparse "github.com/sbxhq/terraform-provider-sbx/internal/dockerfile"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/restplatform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

// templates are Daytona snapshots built from a Dockerfile or adopted from
// an image. Daytona snapshots are immutable: every change is a new one.
type templates struct{ p *Platform }

var (
	_ platform.TemplateSpecValidator = (*Platform)(nil)
	_ platform.TemplateActivator     = (*templates)(nil)
)

// Daytona's snapshot states (SnapshotState).
const (
	snapActive      = "active"
	snapInactive    = "inactive"
	snapError       = "error"
	snapBuildFailed = "build_failed"
)

// snapshotNamePattern is the server's IMAGE_NAME_REGEX, which checks
// snapshot names (apps/api/src/sandbox/services/snapshot.service.ts:68,122).
var snapshotNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_.\-:]+(/[a-zA-Z0-9_.\-:]+)*(@sha256:[a-f0-9]{64})?$`)

// statusReady is the Status of an active template, as on the other platforms.
const statusReady = "ready"

// ValidateTemplateSpec reports at plan time what Daytona cannot build: an
// image with a moving tag (named as `image`), a Dockerfile without FROM,
// a COPY or ADD it cannot read.
func (p *Platform) ValidateTemplateSpec(spec platform.TemplateSpec) error {
	switch {
	case spec.Name != "" && !snapshotNamePattern.MatchString(spec.Name):
		return fmt.Errorf("template name %q: Daytona snapshot names may hold only letters, digits, '_', '.', '-', ':' and single '/' between parts", spec.Name)
	case spec.FromTemplate != "":
		return &platform.UnsupportedError{Platform: platformName, Capability: "from_template (" + whyFromTemplate + ")"}
	case spec.ReadyCmd != "":
		return &platform.UnsupportedError{Platform: platformName, Capability: "ready_cmd"}
	case spec.Image != "":
		if err := imageTagError(spec.Image); err != nil {
			return err
		}
	case spec.Dockerfile != "":
		f, err := dockerfileparse.Parse(spec.Dockerfile)
		if err != nil {
			return err
		}
		if problem := f.BaseProblem(); problem != "" {
			return fmt.Errorf("dockerfile %s (Daytona builds the Dockerfile as it is)", problem)
		}
		if _, err := contextSources(spec.Dockerfile); err != nil {
			return err
		}
	}
	return nil
}

// Create builds a Daytona snapshot named spec.Name and waits until it is
// active. Daytona snapshots carry no labels, so a snapshot of the name that
// exists before the create is not this create's: a NotOwnedError. A build
// that fails returns the template with the error, so it is kept in state.
func (t *templates) Create(ctx context.Context, spec platform.TemplateSpec) (*platform.Template, error) {
	if err := t.p.ValidateTemplateSpec(spec); err != nil {
		return nil, err
	}
	switch {
	case len(spec.Labels) > 0:
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "template labels"}
	case spec.Public != nil && *spec.Public:
		return nil, &platform.UnsupportedError{Platform: platformName, Capability: "public templates"}
	}
	taken, err := t.find(ctx, spec.Name)
	if err != nil {
		return nil, fmt.Errorf("looking for a snapshot named %q: %w", spec.Name, err)
	}
	if taken != nil {
		return nil, &platform.NotOwnedError{Kind: "template", Name: spec.Name, ID: taken.ID,
			Detail: "Daytona snapshot names are unique in an organisation"}
	}
	body := createSnapshot{Name: spec.Name, CPU: spec.CPUCount, Memory: gb(spec.MemoryMB), Disk: gb(spec.DiskMB)}
	if spec.Image != "" {
		body.ImageName = spec.Image
		if spec.StartCmd != "" {
			body.Entrypoint = entrypointOf(spec.StartCmd)
		}
	} else {
		// The files are found and hashed before anything is made: a
		// missing source fails with nothing left behind.
		parts, err := contextParts(spec.ContextDir, spec.Dockerfile)
		if err != nil {
			return nil, err
		}
		hashes, err := t.p.uploadContext(ctx, parts)
		if err != nil {
			return nil, err
		}
		body.BuildInfo = &createBuildInfo{DockerfileContent: withEntrypoint(spec.Dockerfile, spec.StartCmd), ContextHashes: hashes}
	}
	made, err := t.createOnce(ctx, body)
	if err != nil {
		return nil, err
	}
	return t.waitActive(ctx, made.ID, spec.Name)
}

// createOnce sends POST /snapshots. A lost answer is looked for by name
// (free before the create, so a snapshot found under it is this
// create's); not found, the create is sent once more, which a snapshot the
// first send made after all refuses as a taken name (409), found by name.
func (t *templates) createOnce(ctx context.Context, body createSnapshot) (*snapshotAPI, error) {
	for send := 1; ; send++ {
		var out snapshotAPI
		_, err := t.p.do(ctx, http.MethodPost, "/snapshots", nil, body, &out)
		if err == nil {
			return &out, nil
		}
		if rest.IsConflict(err) {
			taken, ferr := t.find(ctx, body.Name)
			switch {
			case ferr == nil && taken != nil && send > 1:
				return taken, nil // made by the first send
			case ferr == nil && taken != nil:
				return nil, &platform.NotOwnedError{Kind: "template", Name: body.Name, ID: taken.ID, Detail: "made while this create ran"}
			}
			return nil, err
		}
		if !errors.Is(err, rest.ErrMaybeApplied) {
			return nil, err
		}
		var found *snapshotAPI
		ok, waited, ferr := t.p.findLost(ctx, func(ctx context.Context) (bool, error) {
			s, lerr := t.find(ctx, body.Name)
			found = s
			return s != nil, lerr
		})
		if ok {
			tflog.Info(ctx, "the template create's answer was lost; found the snapshot it made", map[string]any{"id": found.ID, "waited": waited.String()})
			return found, nil
		}
		if ferr == nil && send < maxCreateSends {
			continue
		}
		return nil, lostCreate(fmt.Sprintf("template %q", body.Name), err, waited, ferr, fmt.Sprintf(
			"If it was made, Daytona will list a snapshot named %q (the sbx_template data source finds it by name): "+
				"import it (terraform import <address> <snapshot id>) or delete it, then apply again.", body.Name))
	}
}

// find returns the Daytona snapshot of the name (or id), or nil.
func (t *templates) find(ctx context.Context, nameOrID string) (*snapshotAPI, error) {
	if strings.Contains(nameOrID, "/") {
		// A name with a slash does not fit one path segment everywhere:
		// search the list for it instead.
		rows, err := t.p.listSnapshots(ctx, nameOrID)
		if err != nil {
			return nil, err
		}
		for i := range rows {
			if rows[i].Name == nameOrID {
				return &rows[i], nil
			}
		}
		return nil, nil
	}
	s, err := t.read(ctx, nameOrID)
	if rest.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &s, nil
}

func (t *templates) read(ctx context.Context, id string) (snapshotAPI, error) {
	var s snapshotAPI
	_, err := t.p.do(ctx, http.MethodGet, "/snapshots/"+pathID(id), nil, nil, &s)
	return s, err
}

// building reports whether a snapshot is still on its way to a result.
func building(s snapshotAPI) bool {
	switch s.State {
	case snapActive, snapInactive, snapError, snapBuildFailed:
		return false
	}
	return true
}

// waitActive follows a build until the snapshot is active; a failed build
// returns the template with an error carrying Daytona's reason and the
// build log's last lines.
func (t *templates) waitActive(ctx context.Context, id, name string) (*platform.Template, error) {
	read := func(ctx context.Context) (snapshotAPI, error) { return t.read(ctx, id) }
	s, err := waitFor(ctx, t.p, read, func(s snapshotAPI) (bool, error) { return !building(s), nil })
	if err != nil {
		tpl := &platform.Template{ID: id, Name: name, Status: "unknown", Labels: map[string]string{}}
		if s.ID != "" {
			tpl = templateFromAPI(s)
		}
		return tpl, fmt.Errorf("waiting for the snapshot to build: %w", restplatform.NotFound(err, "template", id))
	}
	tpl := templateFromAPI(s)
	if s.State == snapActive || s.State == snapInactive {
		return tpl, nil
	}
	return tpl, t.buildFailure(ctx, s)
}

// buildLogTail is how many of a failed build's last log lines its error shows.
const buildLogTail = 15

// buildFailure describes a failed build: Daytona's errorReason and the
// last lines of its build log.
func (t *templates) buildFailure(ctx context.Context, s snapshotAPI) error {
	var b strings.Builder
	reason := "Daytona gave no reason"
	if s.ErrorReason != nil && *s.ErrorReason != "" {
		reason = *s.ErrorReason
	}
	fmt.Fprintf(&b, "snapshot %s: build %s: %s", s.ID, strings.ReplaceAll(s.State, "_", " "), reason)
	tail, err := t.logTail(ctx, s.ID)
	switch {
	case err != nil:
		fmt.Fprintf(&b, "\n(the build log could not be read: %v)", err)
	case len(tail) > 0:
		fmt.Fprintf(&b, "\nLast lines of the build log:\n  %s", strings.Join(tail, "\n  "))
	}
	return errors.New(b.String())
}

// maxBuildLog bounds how much of a build log is read.
const maxBuildLog = 4 << 20

// logTail reads the build log from the URL Daytona gives for it and
// returns its last lines.
func (t *templates) logTail(ctx context.Context, id string) ([]string, error) {
	var u urlAPI
	if _, err := t.p.do(ctx, http.MethodGet, "/snapshots/"+pathID(id)+"/build-logs-url", nil, nil, &u); err != nil {
		return nil, err
	}
	if _, err := url.Parse(u.URL); err != nil || u.URL == "" {
		return nil, fmt.Errorf("no usable build log URL from Daytona (%q)", u.URL)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.URL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+t.p.apiKey)
	for k, v := range t.p.header {
		req.Header[k] = v
	}
	if t.p.userAgent != "" {
		req.Header.Set("User-Agent", t.p.userAgent)
	}
	resp, err := t.p.plain.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("GET build log: %s", resp.Status)
	}
	var tail []string
	sc := bufio.NewScanner(io.LimitReader(resp.Body, maxBuildLog))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		tail = append(tail, line)
		if len(tail) > buildLogTail {
			tail = tail[1:]
		}
	}
	return tail, sc.Err()
}

// templateFromAPI normalizes a Daytona snapshot.
func templateFromAPI(s snapshotAPI) *platform.Template {
	tpl := &platform.Template{
		ID: s.ID, Name: s.Name, Status: s.State,
		CPUCount: sizeOrDefault(s.CPU, defaultSnapshotCPU, 1), MemoryMB: sizeOrDefault(s.Mem, defaultSnapshotMemGB, gib),
		DiskMB:    sizeOrDefault(s.Disk, defaultSnapshotDiskGB, gib),
		CreatedAt: s.CreatedAt.Time, Labels: map[string]string{}, Public: s.General,
	}
	switch s.State {
	case snapActive:
		tpl.Status = statusReady
	case snapInactive:
		tpl.Status = platform.TemplateInactive
	}
	if s.LastUsedAt != nil {
		tpl.LastUsedAt = s.LastUsedAt.Time
	}
	if s.BuildInfo == nil {
		tpl.Image = s.ImageName
	}
	// The build is named by its image reference: Daytona's ref, else the
	// build's snapshotRef, else the snapshot itself (every change is a new
	// snapshot).
	tpl.BuildID = s.ID
	switch {
	case s.Ref != "":
		tpl.BuildID = s.Ref
	case s.BuildInfo != nil && s.BuildInfo.SnapshotRef != "":
		tpl.BuildID = s.BuildInfo.SnapshotRef
	}
	ep := s.Entrypoint
	if len(ep) == 0 && s.BuildInfo != nil {
		// The server takes a build's entrypoint from its Dockerfile's last
		// ENTRYPOINT line (snapshot.service.ts:333,886); read it the same way
		// where the answer leaves it out.
		ep = dockerfileEntrypoint(s.BuildInfo.DockerfileContent)
	}
	// Only an entrypoint the provider wrote (sh -c) reads back as start_cmd.
	if len(ep) == 3 && ep[0] == "sh" && ep[1] == "-c" {
		tpl.StartCmd = startCmdOf(ep)
	}
	return tpl
}

// Rebuild implements platform.TemplateService: Daytona snapshots cannot
// be rebuilt (every change replaces the template).
func (t *templates) Rebuild(context.Context, string, platform.TemplateSpec) (*platform.Template, error) {
	return nil, &platform.UnsupportedError{Platform: platformName, Capability: "rebuilding a template in place (Daytona snapshots are immutable)"}
}

// Get implements platform.TemplateService.
func (t *templates) Get(ctx context.Context, id string) (*platform.Template, error) {
	s, err := t.read(ctx, id)
	if err != nil {
		return nil, restplatform.NotFound(err, "template", id)
	}
	return templateFromAPI(s), nil
}

// snapshotPageLimit is the page size of GET /snapshots.
const snapshotPageLimit = 100

// listAll reads every page of GET /snapshots (page numbers), newest first.
func (p *Platform) listSnapshots(ctx context.Context, name string) ([]snapshotAPI, error) {
	var all []snapshotAPI
	seen := map[string]bool{}
	for page := 1; ; page++ {
		q := url.Values{"page": {strconv.Itoa(page)}, "limit": {strconv.Itoa(snapshotPageLimit)},
			"sort": {"createdAt"}, "order": {"desc"}}
		if name != "" {
			q.Set("name", name)
		}
		var out snapshotPage
		if _, err := p.do(ctx, http.MethodGet, "/snapshots", q, nil, &out); err != nil {
			return nil, err
		}
		for _, s := range out.Items {
			if !seen[s.ID] {
				seen[s.ID] = true
				all = append(all, s)
			}
		}
		if len(out.Items) == 0 || float64(page) >= out.TotalPages {
			break
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].CreatedAt.After(all[j].CreatedAt.Time) })
	return all, nil
}

// List implements platform.TemplateService: every snapshot of the
// organisation counts (they carry no labels), but Daytona's general
// snapshots, which belong to no one.
func (t *templates) List(ctx context.Context, filter platform.TemplateFilter) ([]platform.Template, error) {
	rows, err := t.p.listSnapshots(ctx, filter.Name)
	if err != nil {
		return nil, err
	}
	var out []platform.Template
	for _, s := range rows {
		// The name filter is a search on the server; the match must be exact.
		if s.General || (filter.Name != "" && s.Name != filter.Name) {
			continue
		}
		out = append(out, *templateFromAPI(s))
	}
	return out, nil
}

// Delete implements platform.TemplateService.
func (t *templates) Delete(ctx context.Context, id string) error {
	_, err := t.p.do(ctx, http.MethodDelete, "/snapshots/"+pathID(id), nil, nil, nil)
	if rest.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return t.p.waitGone(ctx, func(ctx context.Context) error {
		_, err := t.read(ctx, id)
		return err
	})
}

// Activate implements platform.TemplateActivator: POST
// /snapshots/{id}/activate, then wait until the snapshot is active. An
// active template is returned as it is.
func (t *templates) Activate(ctx context.Context, id string) (*platform.Template, error) {
	s, err := t.read(ctx, id)
	if err != nil {
		return nil, restplatform.NotFound(err, "template", id)
	}
	if s.State == snapActive {
		return templateFromAPI(s), nil
	}
	if err := t.activate(ctx, id); err != nil {
		// "already active" (400) after a race: the read that follows says.
		if !rest.IsStatus(err, http.StatusBadRequest) {
			return nil, fmt.Errorf("activating the template: %w", restplatform.NotFound(err, "template", id))
		}
		if again, rerr := t.read(ctx, id); rerr != nil || again.State == snapInactive {
			return nil, fmt.Errorf("activating the template: %w", err)
		}
	}
	read := func(ctx context.Context) (snapshotAPI, error) { return t.read(ctx, id) }
	s, err = waitFor(ctx, t.p, read, func(s snapshotAPI) (bool, error) {
		return s.State == snapActive || s.State == snapError || s.State == snapBuildFailed, nil
	})
	if err != nil {
		return nil, fmt.Errorf("waiting for the template to be active: %w", restplatform.NotFound(err, "template", id))
	}
	if s.State != snapActive {
		return templateFromAPI(s), t.buildFailure(ctx, s)
	}
	return templateFromAPI(s), nil
}

// activationCooldown is how long after a deactivation Daytona refuses an
// activation ("deactivation is still in progress", snapshot.service.ts:754-759).
const activationCooldown = 10 * time.Minute

// activationRetry is the wait between activations refused for the cooldown.
const activationRetry = 30 * time.Second

// activate sends POST /snapshots/{id}/activate, waiting out, within ctx,
// the cooldown after a recent deactivation.
func (t *templates) activate(ctx context.Context, id string) error {
	var waited time.Duration
	for {
		_, err := t.p.do(ctx, http.MethodPost, "/snapshots/"+pathID(id)+"/activate", nil, nil, nil)
		var ae *rest.APIError
		if err == nil || !errors.As(err, &ae) || ae.StatusCode != http.StatusBadRequest ||
			!strings.Contains(ae.Message, "still in progress") || waited > activationCooldown {
			return err
		}
		if serr := t.p.sleep(ctx, activationRetry); serr != nil {
			return err
		}
		waited += activationRetry
	}
}

// The sizes Daytona gives a snapshot created without them: the Snapshot
// entity's column defaults (apps/api/src/sandbox/entities/snapshot.entity.ts:
// 68-85: cpu 1, mem 1 GB, disk 3 GB).
const (
	defaultSnapshotCPU    = 1
	defaultSnapshotMemGB  = 1
	defaultSnapshotDiskGB = 3
)

// sizeOrDefault is a reported size in the provider's unit, or 0 where it is
// Daytona's default: a template made without a size reads (and imports) as
// made without it, as the sandbox's intervals at their defaults do, so a
// configuration that leaves sizes out plans nothing after an import.
func sizeOrDefault(reported float64, def, unit int) int64 {
	if reported == float64(def) {
		return 0
	}
	return int64(reported * float64(unit))
}

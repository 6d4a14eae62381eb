package daytonafake

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// sandboxJSON is SandboxDto as SandboxDto.fromSandbox fills it
// (dto/sandbox.dto.ts:320-368).
type sandboxJSON struct {
	ID                  string            `json:"id"`
	OrganizationID      string            `json:"organizationId"`
	Name                string            `json:"name"`
	Snapshot            string            `json:"snapshot,omitempty"`
	User                string            `json:"user"`
	Env                 map[string]string `json:"env"`
	Labels              map[string]string `json:"labels"`
	Public              bool              `json:"public"`
	NetworkBlockAll     bool              `json:"networkBlockAll"`
	NetworkAllowList    *string           `json:"networkAllowList,omitempty"`
	DomainAllowList     *string           `json:"domainAllowList,omitempty"`
	Target              string            `json:"target"`
	CPU                 int               `json:"cpu"`
	GPU                 int               `json:"gpu"`
	Memory              int               `json:"memory"`
	Disk                int               `json:"disk"`
	State               string            `json:"state"`
	DesiredState        string            `json:"desiredState"`
	ErrorReason         string            `json:"errorReason,omitempty"`
	Recoverable         bool              `json:"recoverable"`
	BackupState         string            `json:"backupState"`
	AutoStopInterval    int               `json:"autoStopInterval"`
	AutoArchiveInterval int               `json:"autoArchiveInterval"`
	AutoDeleteInterval  int               `json:"autoDeleteInterval"`
	Volumes             []sandboxVolume   `json:"volumes"`
	CreatedAt           string            `json:"createdAt"`
	UpdatedAt           string            `json:"updatedAt"`
	LastActivityAt      string            `json:"lastActivityAt"`
	SandboxClass        string            `json:"sandboxClass"`
	DaemonVersion       string            `json:"daemonVersion"`
	RunnerID            string            `json:"runnerId,omitempty"`
	ToolboxProxyURL     string            `json:"toolboxProxyUrl"`
}

// sandboxListItemJSON is SandboxListItem: the list leaves out env, volumes
// and the network settings.
type sandboxListItemJSON struct {
	ID                  string            `json:"id"`
	OrganizationID      string            `json:"organizationId"`
	Name                string            `json:"name"`
	Target              string            `json:"target"`
	RunnerID            string            `json:"runnerId,omitempty"`
	SandboxClass        string            `json:"sandboxClass"`
	State               string            `json:"state"`
	DesiredState        string            `json:"desiredState"`
	Snapshot            string            `json:"snapshot,omitempty"`
	User                string            `json:"user"`
	ErrorReason         string            `json:"errorReason,omitempty"`
	Recoverable         bool              `json:"recoverable"`
	Public              bool              `json:"public"`
	CPU                 int               `json:"cpu"`
	GPU                 int               `json:"gpu"`
	Memory              int               `json:"memory"`
	Disk                int               `json:"disk"`
	Labels              map[string]string `json:"labels"`
	BackupState         string            `json:"backupState"`
	AutoStopInterval    int               `json:"autoStopInterval"`
	AutoArchiveInterval int               `json:"autoArchiveInterval"`
	AutoDeleteInterval  int               `json:"autoDeleteInterval"`
	CreatedAt           string            `json:"createdAt"`
	UpdatedAt           string            `json:"updatedAt"`
	LastActivityAt      string            `json:"lastActivityAt"`
	DaemonVersion       string            `json:"daemonVersion"`
	ToolboxProxyURL     string            `json:"toolboxProxyUrl"`
}

const daemonVersion = "0.190.0"

func (s *Server) sandboxDTO(sb *sandbox) sandboxJSON {
	out := sandboxJSON{ID: sb.id, OrganizationID: s.opts.OrganizationID, Name: sb.name, Snapshot: sb.snapshot, User: sb.user,
		Env: copyMap(sb.env), Labels: copyMap(sb.labels), Public: sb.public, NetworkBlockAll: sb.networkBlockAll,
		NetworkAllowList: sb.networkAllowList, DomainAllowList: sb.domainAllowList, Target: sb.region,
		CPU: sb.cpu, GPU: sb.gpu, Memory: sb.mem, Disk: sb.disk, State: shownState(sb), DesiredState: sb.desired,
		ErrorReason: sb.errorReason, Recoverable: sb.recoverable, BackupState: "None",
		AutoStopInterval: sb.autoStop, AutoArchiveInterval: sb.autoArchive, AutoDeleteInterval: sb.autoDelete,
		Volumes: append([]sandboxVolume{}, sb.volumes...), CreatedAt: stamp(sb.createdAt), UpdatedAt: stamp(sb.updatedAt),
		LastActivityAt: stamp(sb.lastActivityAt), SandboxClass: sb.class, DaemonVersion: daemonVersion,
		ToolboxProxyURL: s.URL() + "/_fake/toolbox"}
	// The entity drops the runner of destroyed and archived boxes
	// (sandbox.entity.ts:446-448).
	if sb.state != stateArchived && sb.state != stateDestroyed {
		out.RunnerID = fakeRunnerID
	}
	return out
}

// shownState is SandboxDto.getSandboxState (dto/sandbox.dto.ts:371-398):
// a box whose wish is recorded but not yet acted on shows where it is
// going, so a stop's answer already reads "stopping" and a start's
// "starting".
func shownState(sb *sandbox) string {
	switch sb.state {
	case stateStarted:
		switch sb.desired {
		case stateStopped:
			return stateStopping
		case stateDestroyed:
			return stateDestroying
		}
	case stateStopped:
		switch sb.desired {
		case stateStarted:
			return stateStarting
		case stateDestroyed:
			return stateDestroying
		case stateArchived:
			return stateArchiving
		}
	}
	return sb.state
}

func (s *Server) sandboxReply(sb *sandbox) reply {
	return reply{status: http.StatusOK, body: s.sandboxDTO(sb)}
}

type createSandboxReq struct {
	Name                string            `json:"name"`
	Snapshot            string            `json:"snapshot"`
	User                string            `json:"user"`
	Target              string            `json:"target"`
	Env                 map[string]string `json:"env"`
	Labels              map[string]string `json:"labels"`
	Public              bool              `json:"public"`
	NetworkBlockAll     *bool             `json:"networkBlockAll"`
	NetworkAllowList    *string           `json:"networkAllowList"`
	DomainAllowList     *string           `json:"domainAllowList"`
	CPU                 int               `json:"cpu"`
	GPU                 int               `json:"gpu"`
	Memory              int               `json:"memory"`
	Disk                int               `json:"disk"`
	GPUType             []string          `json:"gpuType"`
	AutoStopInterval    *int              `json:"autoStopInterval"`
	AutoArchiveInterval *int              `json:"autoArchiveInterval"`
	AutoDeleteInterval  *int              `json:"autoDeleteInterval"`
	Volumes             []sandboxVolume   `json:"volumes"`
	BuildInfo           json.RawMessage   `json:"buildInfo"`
	LinkedSandbox       string            `json:"linkedSandbox"`
}

// createSandbox is sandbox.controller.ts:277-312 and createFromSnapshot
// (sandbox.service.ts:460-731). The controller waits up to 30 s for the box
// to start; the fake answers at once with "creating" and lets GETs find it
// started (Options.Polls), which a client must handle anyway since the
// server returns whatever state the box has after its wait.
func (s *Server) createSandbox(c *call) reply {
	var req createSandboxReq
	if err := json.Unmarshal(c.body, &req); err != nil {
		return errorReply(http.StatusBadRequest, "invalid body: %v", err)
	}
	if len(req.BuildInfo) > 0 && string(req.BuildInfo) != "null" {
		if req.Snapshot != "" {
			return errorReply(http.StatusBadRequest, "Cannot specify a snapshot when using a build info entry")
		}
		// Declarative builds (createFromBuildInfo) are not modelled.
		return errorReply(http.StatusNotImplemented, "the Daytona fake does not model sandboxes created from buildInfo")
	}
	if req.CPU != 0 || req.GPU != 0 || req.Memory != 0 || req.Disk != 0 {
		return errorReply(http.StatusBadRequest, "Cannot specify Sandbox resources when using a snapshot")
	}
	if len(req.GPUType) > 0 {
		return errorReply(http.StatusBadRequest, "Cannot specify GPU type when creating sandbox from snapshot. GPU type is inherited from snapshot.")
	}
	ref := req.Snapshot
	if strings.TrimSpace(ref) == "" {
		ref = s.opts.DefaultSnapshot
	}
	sn := s.findSnapshot(ref)
	if sn == nil {
		return errorReply(http.StatusBadRequest, "Snapshot %s not found. Did you add it through the Daytona Dashboard?", ref)
	}
	if sn.state != snapActive {
		return errorReply(http.StatusBadRequest, "Snapshot %s is %s", ref, sn.state)
	}
	autoDelete := defaultAutoDelete
	if req.AutoDeleteInterval != nil {
		autoDelete = *req.AutoDeleteInterval
	}
	if sn.gpu > 0 && autoDelete != 0 {
		return errorReply(http.StatusBadRequest, "GPU sandboxes must be ephemeral - set autoDeleteInterval to 0")
	}
	if sn.class == ClassAndroid && req.LinkedSandbox == "" {
		return errorReply(http.StatusBadRequest, "Android sandboxes must be linked to another sandbox")
	}
	if req.LinkedSandbox != "" {
		return errorReply(http.StatusNotImplemented, "the Daytona fake does not model linked sandboxes")
	}
	if rep, ok := s.checkPerSandboxLimits(sn.cpu, sn.mem, sn.disk); !ok {
		return rep
	}
	region := fakeRegion
	if req.Target != "" {
		// getValidatedOrDefaultRegion (sandbox.service.ts:2810-2833): an
		// unknown region is a 404.
		if !slices.Contains(s.opts.Regions, req.Target) {
			return errorReply(http.StatusNotFound, "Region not found")
		}
		region = req.Target
	}
	volumes, rep, ok := s.resolveVolumes(req.Volumes)
	if !ok {
		return rep
	}
	sb := &sandbox{region: region, seq: s.nextSeq(), id: fakeapi.UUID(), name: req.Name, snapshot: sn.name, snapshotRef: req.Snapshot,
		user: req.User, env: copyMap(req.Env), labels: copyMap(req.Labels), public: req.Public, class: sn.class,
		cpu: sn.cpu, gpu: sn.gpu, mem: sn.mem, disk: sn.disk, state: stateCreating, desired: stateStarted,
		autoStop: defaultAutoStop, autoArchive: defaultAutoArchive, autoDelete: autoDelete, volumes: volumes,
		createdAt: c.now, updatedAt: c.now, lastActivityAt: c.now, listedFrom: c.now.Add(s.opts.ListLag),
		listedAfter: s.lists + s.opts.ListLagLists}
	if sb.name == "" {
		sb.name = sb.id // the entity names an unnamed box after its id
	}
	if sb.user == "" {
		sb.user = defaultUser
	}
	if req.NetworkBlockAll != nil {
		sb.networkBlockAll = *req.NetworkBlockAll
	}
	if req.NetworkAllowList != nil {
		if msg := validateNetworkAllowList(*req.NetworkAllowList); msg != "" {
			return errorReply(http.StatusBadRequest, "%s", msg)
		}
		sb.networkAllowList = strPtr(*req.NetworkAllowList)
	}
	if req.DomainAllowList != nil {
		sb.domainAllowList = strPtr(*req.DomainAllowList)
	}
	if req.AutoStopInterval != nil {
		if *req.AutoStopInterval < 0 {
			return errorReply(http.StatusBadRequest, "Auto-stop interval must be non-negative")
		}
		sb.autoStop = *req.AutoStopInterval
	}
	if req.AutoArchiveInterval != nil {
		v, rep, ok := s.resolveAutoArchive(*req.AutoArchiveInterval)
		if !ok {
			return rep
		}
		sb.autoArchive = v
	}
	// The name is unique among the organization's live boxes (a destroyed
	// one was renamed): the insert's unique violation becomes a 409
	// (sandbox.service.ts:711-713).
	if other := s.sandboxByName(sb.name); other != nil {
		return errorReply(http.StatusConflict, "Sandbox with name %s already exists", req.Name)
	}
	// The box is inserted in "unknown", which the DTO shows as "creating"
	// (dto/sandbox.dto.ts:392-395), until the start action has the runner
	// create it ("creating", sandbox-start.action.ts:412-462) and finds it
	// started (619-640).
	s.begin(sb, c.now, stateStarted, nil, stateCreating)
	s.sandboxes[sb.id] = sb
	// SandboxCreatedEvent updates lastUsedAt of the snapshot and the
	// volumes (snapshot.service.ts:710-727, volume.service.ts:307-325).
	sn.lastUsedAt = timePtr(c.now)
	for _, m := range volumes {
		if v, ok := s.volumes[m.VolumeID]; ok {
			v.lastUsedAt = timePtr(c.now)
		}
	}
	return s.sandboxReply(sb)
}

// resolveAutoArchive is resolveAutoArchiveInterval (sandbox.service.ts:
// 3298-3310): 0 means the maximum, larger values are clamped to it.
func (s *Server) resolveAutoArchive(v int) (int, reply, bool) {
	if v < 0 {
		return 0, errorReply(http.StatusBadRequest, "Auto-archive interval must be non-negative"), false
	}
	if v == 0 || v > s.opts.MaxAutoArchiveMinutes {
		return s.opts.MaxAutoArchiveMinutes, reply{}, true
	}
	return v, reply{}, true
}

// validateNetworkAllowList is network-validation.util.ts: comma-separated
// IPv4 CIDRs, at most 10.
func validateNetworkAllowList(list string) string {
	networks := strings.Split(list, ",")
	for _, network := range networks {
		network = strings.TrimSpace(network)
		if network == "" {
			continue
		}
		ip, prefix, _ := strings.Cut(network, "/")
		if parsed := net.ParseIP(ip); parsed == nil || parsed.To4() == nil || !strings.Contains(ip, ".") {
			return fmt.Sprintf("Invalid IP address: %q in network %q. Must be a valid IPv4 address", ip, network)
		}
		if prefix == "" {
			return fmt.Sprintf("Invalid network format: %q. Missing CIDR prefix length (e.g., /24)", network)
		}
		if n, err := strconv.Atoi(prefix); err == nil && (n < 0 || n > 32) {
			return fmt.Sprintf("Invalid CIDR prefix length: %s. Prefix must be between 0 and 32", network)
		}
	}
	if len(networks) > 10 {
		return "Network allow list cannot contain more than 10 networks"
	}
	return ""
}

// live reports whether lookups find a box: not destroyed, and not an
// errored box whose deletion was asked (findOneByIdOrName,
// sandbox.service.ts:1776-1784).
func (sb *sandbox) live() bool {
	if sb.state == stateDestroyed {
		return false
	}
	errored := sb.state == stateError || sb.state == stateBuildFailed
	return !errored || sb.desired != stateDestroyed
}

func (s *Server) sandboxByName(name string) *sandbox {
	for _, sb := range s.sandboxes {
		if sb.live() && sb.name == name {
			return sb
		}
	}
	return nil
}

// findSandbox is findOneByIdOrName: by id first, then by name.
func (s *Server) findSandbox(idOrName string) *sandbox {
	if sb, ok := s.sandboxes[idOrName]; ok && sb.live() {
		return sb
	}
	return s.sandboxByName(idOrName)
}

func (s *Server) sandboxOr404(c *call) (*sandbox, reply, bool) {
	key := c.params["sandboxIdOrName"]
	if key == "" {
		key = c.params["sandboxId"]
	}
	sb := s.findSandbox(key)
	if sb == nil {
		return nil, errorReply(http.StatusNotFound, "Sandbox with ID or name %s not found", key), false
	}
	return sb, reply{}, true
}

// getSandbox answers a box; each GET moves a transition on (Options.Polls).
// The GET that finds a deletion finished answers 404, as the server's
// lookups skip destroyed boxes.
func (s *Server) getSandbox(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	s.pollSandbox(sb, c.now)
	if !sb.live() {
		return errorReply(http.StatusNotFound, "Sandbox with ID or name %s not found", c.params["sandboxIdOrName"])
	}
	return s.sandboxReply(sb)
}

// softDelete is Sandbox.getSoftDeleteUpdate (sandbox.entity.ts:317-324):
// the box wants to be destroyed and gives up its name at once.
func (s *Server) softDelete(sb *sandbox) {
	sb.desired = stateDestroyed
	sb.name = fmt.Sprintf("DESTROYED_%s_%d", sb.name, s.clock.Now().UnixMilli())
}

// deleteSandbox is destroy() (sandbox.service.ts:2013-2040): refused while
// another state change is pending; the answer still shows the old state
// with desiredState "destroyed".
func (s *Server) deleteSandbox(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	if sb.pending() {
		return stateChangeInProgress()
	}
	s.softDelete(sb)
	// The destroy action has the runner remove the box ("destroying",
	// sandbox-destroy.action.ts:45-63); an archived box has nothing on a
	// runner and is destroyed by the action's first run (34-35), reading
	// archived until then.
	via := stateDestroying
	if sb.state == stateArchived {
		via = stateArchived
	}
	s.begin(sb, c.now, stateDestroyed, nil, via)
	return s.sandboxReply(sb)
}

// stateChangeInProgress is StateChangeInProgressError
// (exceptions/state-change-in-progress.exception.ts): a 409.
func stateChangeInProgress() reply {
	return errorReply(http.StatusConflict, "Sandbox state change in progress")
}

// listSandboxes is search() (sandbox.service.ts:1630-1688) over the typeorm
// adapter (sandbox-typeorm-search.adapter.ts): id and name are prefixes,
// labels a JSON object the box's labels must contain, states defaults to all
// but destroyed, and errored boxes being deleted only show with
// includeErroredDeleted. Pages are cursor-based on the sort key and id.
func (s *Server) listSandboxes(c *call) reply {
	var labels map[string]string
	if v := c.query.Get("labels"); v != "" {
		if err := json.Unmarshal([]byte(v), &labels); err != nil {
			return errorReply(http.StatusBadRequest, "Invalid labels JSON format")
		}
	}
	states := map[string]bool{}
	for _, st := range c.query["states"] {
		states[st] = true
	}
	classes := map[string]bool{}
	for _, cl := range c.query["sandboxClasses"] {
		classes[cl] = true
	}
	snapshots := map[string]bool{}
	for _, sn := range c.query["snapshots"] {
		snapshots[sn] = true
	}
	includeErrored := c.query.Get("includeErroredDeleted") == "true"
	if c.query.Get("cursor") == "" {
		s.lists++ // a new walk; its later pages see what its first saw
	}
	var matched []*sandbox
	for _, sb := range s.sandboxes {
		if c.now.Before(sb.listedFrom) || s.lists <= sb.listedAfter || sb.state == stateDestroyed || (len(states) > 0 && !states[sb.state]) ||
			(len(classes) > 0 && !classes[sb.class]) || (len(snapshots) > 0 && !snapshots[sb.snapshot]) {
			continue
		}
		if (sb.state == stateError || sb.state == stateBuildFailed) && sb.desired == stateDestroyed && !includeErrored {
			continue
		}
		if !strings.HasPrefix(strings.ToLower(sb.id), strings.ToLower(c.query.Get("id"))) ||
			!strings.HasPrefix(strings.ToLower(sb.name), strings.ToLower(c.query.Get("name"))) || !containsLabels(sb.labels, labels) {
			continue
		}
		matched = append(matched, sb)
	}
	page, next, err := cursorPage(matched, c.query.Get("sort"), c.query.Get("order") == "asc", c.query.Get("cursor"), queryInt(c, "limit", 100))
	if err != nil {
		return errorReply(http.StatusBadRequest, "Invalid cursor provided: %s", c.query.Get("cursor"))
	}
	items := []sandboxListItemJSON{}
	for _, sb := range page {
		d := s.sandboxDTO(sb)
		items = append(items, sandboxListItemJSON{ID: d.ID, OrganizationID: d.OrganizationID, Name: d.Name, Target: d.Target,
			RunnerID: d.RunnerID, SandboxClass: d.SandboxClass, State: d.State, DesiredState: d.DesiredState, Snapshot: d.Snapshot,
			User: d.User, ErrorReason: d.ErrorReason, Recoverable: d.Recoverable, Public: d.Public, CPU: d.CPU, GPU: d.GPU,
			Memory: d.Memory, Disk: d.Disk, Labels: d.Labels, BackupState: d.BackupState, AutoStopInterval: d.AutoStopInterval,
			AutoArchiveInterval: d.AutoArchiveInterval, AutoDeleteInterval: d.AutoDeleteInterval, CreatedAt: d.CreatedAt,
			UpdatedAt: d.UpdatedAt, LastActivityAt: d.LastActivityAt, DaemonVersion: d.DaemonVersion, ToolboxProxyURL: d.ToolboxProxyURL})
	}
	return reply{status: http.StatusOK, body: struct {
		Items      []sandboxListItemJSON `json:"items"`
		NextCursor *string               `json:"nextCursor"`
	}{items, next}}
}

func containsLabels(have, want map[string]string) bool {
	for k, v := range want {
		if got, ok := have[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// touchActivity is POST /sandbox/{sandboxId}/last-activity: it resets the
// inactivity timer behind auto-stop.
func (s *Server) touchActivity(c *call) reply {
	sb, rep, ok := s.sandboxOr404(c)
	if !ok {
		return rep
	}
	sb.lastActivityAt = c.now
	return reply{status: http.StatusCreated}
}

package modalfake

import (
	"maps"
	"path"
	"time"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// maxTimeoutSecs is Modal's documented ceiling for a sandbox's timeout and
// idle timeout: 24 hours.
const maxTimeoutSecs = 24 * 60 * 60

// Resource ceilings of the fake, Modal's largest sandbox sizes: the docs
// give no exact refusal threshold, so these are the fake's choice.
const (
	maxMilliCPU = 64_000
	maxMemoryMB = 336 * 1024
)

type sandbox struct {
	id, appID, name, imageID, taskID string
	v2                               bool
	tags                             map[string]string
	env                              map[string]string
	milliCPU, memoryMB               uint32
	timeoutSecs, idleTimeoutSecs     uint32
	enableSnapshot                   bool
	mounts                           []MountView
	definition                       *pb.Sandbox // as sent, for restores
	createdAt, startedAt, finishedAt time.Time
	stamp                            float64 // created_at on the wire, unique per workspace
	finished                         bool
	result                           *pb.GenericResult
	restoredFrom                     string
	runningExecs                     int // commands running (exec.go)
	// pendingReads are the reads (SandboxGetTaskId, SandboxWait) still to
	// show the sandbox without its task (async.go).
	pendingReads int
	// listHidden are the list calls still to leave the new sandbox out.
	listHidden int
	lastActive time.Time // the last command's end
}

// idleSince is when the sandbox last had activity: its start, or the end of
// its last command.
func (sb *sandbox) idleSince() time.Time {
	if sb.lastActive.After(sb.startedAt) {
		return sb.lastActive
	}
	return sb.startedAt
}

// exitCode is what the SDK turns a result into (getReturnCode): 124 for a
// timeout, 137 for a termination, else the result's exit code.
func exitCode(r *pb.GenericResult) int {
	switch r.GetStatus() {
	case pb.GenericResult_GENERIC_STATUS_TIMEOUT:
		return 124
	case pb.GenericResult_GENERIC_STATUS_TERMINATED:
		return 137
	}
	return int(r.GetExitcode())
}

// finish ends a running sandbox; w.s.mu held.
func (w *Workspace) finish(sb *sandbox, st pb.GenericResult_GenericStatus, exception string) {
	if sb.finished {
		return
	}
	sb.finished = true
	sb.finishedAt = w.now
	sb.result = pb.GenericResult_builder{Status: st, Exception: exception}.Build()
	w.killExecs(sb)
}

// validateDefinition checks a sandbox definition as Modal's server does and
// turns it into a sandbox (without id, name clash check or env); w.s.mu held.
func (w *Workspace) validateDefinition(appID string, def *pb.Sandbox, tags []*pb.SandboxTag) (*sandbox, error) {
	if def == nil {
		return nil, status.Error(codes.InvalidArgument, "definition is required")
	}
	if _, ok := w.apps[appID]; !ok {
		return nil, status.Errorf(codes.NotFound, "App '%s' not found", appID)
	}
	img, ok := w.images[def.GetImageId()]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "Image '%s' not found", def.GetImageId())
	}
	if img.status != imageReady {
		return nil, status.Errorf(codes.FailedPrecondition, "Image %s is %s, not built", img.id, img.status)
	}
	if t := def.GetTimeoutSecs(); t == 0 || t > maxTimeoutSecs {
		return nil, status.Errorf(codes.InvalidArgument, "timeout_secs must be between 1 and %d, got %d", maxTimeoutSecs, t)
	}
	if def.HasIdleTimeoutSecs() {
		if t := def.GetIdleTimeoutSecs(); t == 0 || t > maxTimeoutSecs {
			return nil, status.Errorf(codes.InvalidArgument, "idle_timeout_secs must be between 1 and %d, got %d", maxTimeoutSecs, t)
		}
	}
	if def.GetName() != "" {
		if err := checkName("Sandbox", def.GetName()); err != nil {
			return nil, err
		}
	}
	if def.HasWorkdir() && !path.IsAbs(def.GetWorkdir()) {
		return nil, status.Errorf(codes.InvalidArgument, "workdir must be an absolute path, got %q", def.GetWorkdir())
	}
	res := def.GetResources()
	if res.HasGpuConfig() && res.GetGpuConfig().GetCount() > 0 || len(def.GetCloudBucketMounts()) > 0 || len(def.GetNfsMounts()) > 0 {
		return nil, status.Error(codes.Unimplemented, "modalfake: GPUs, cloud bucket mounts and network file systems are not modelled")
	}
	if res.GetMilliCpu() > maxMilliCPU || res.GetMilliCpuMax() > maxMilliCPU {
		return nil, status.Errorf(codes.InvalidArgument, "milli_cpu may be at most %d", maxMilliCPU)
	}
	if res.GetMemoryMb() > maxMemoryMB || res.GetMemoryMbMax() > maxMemoryMB {
		return nil, status.Errorf(codes.InvalidArgument, "memory_mb may be at most %d", maxMemoryMB)
	}
	if res.GetMilliCpuMax() != 0 && res.GetMilliCpuMax() < res.GetMilliCpu() {
		return nil, status.Error(codes.InvalidArgument, "milli_cpu_max must not be below milli_cpu")
	}
	if res.GetMemoryMbMax() != 0 && res.GetMemoryMbMax() < res.GetMemoryMb() {
		return nil, status.Error(codes.InvalidArgument, "memory_mb_max must not be below memory_mb")
	}
	tagMap, err := checkTags(tags)
	if err != nil {
		return nil, err
	}
	mounts, err := w.checkMounts(def.GetVolumeMounts())
	if err != nil {
		return nil, err
	}
	for _, id := range def.GetSecretIds() {
		if _, ok := w.secrets[id]; !ok {
			return nil, status.Errorf(codes.NotFound, "Secret '%s' not found", id)
		}
	}
	return &sandbox{
		appID:           appID,
		name:            def.GetName(),
		imageID:         img.id,
		tags:            tagMap,
		milliCPU:        res.GetMilliCpu(),
		memoryMB:        res.GetMemoryMb(),
		timeoutSecs:     def.GetTimeoutSecs(),
		idleTimeoutSecs: def.GetIdleTimeoutSecs(),
		enableSnapshot:  def.GetEnableSnapshot(),
		mounts:          mounts,
		definition:      def,
	}, nil
}

// checkTags refuses empty or repeated tag names.
func checkTags(tags []*pb.SandboxTag) (map[string]string, error) {
	out := map[string]string{}
	for _, t := range tags {
		if t.GetTagName() == "" {
			return nil, status.Error(codes.InvalidArgument, "tag names must not be empty")
		}
		if _, dup := out[t.GetTagName()]; dup {
			return nil, status.Errorf(codes.InvalidArgument, "tag %q given twice", t.GetTagName())
		}
		out[t.GetTagName()] = t.GetTagValue()
	}
	return out, nil
}

// checkMounts needs existing volumes at distinct absolute paths; w.s.mu held.
func (w *Workspace) checkMounts(vms []*pb.VolumeMount) ([]MountView, error) {
	var out []MountView
	seen := map[string]bool{}
	for _, vm := range vms {
		if _, ok := w.volumes[vm.GetVolumeId()]; !ok {
			return nil, status.Errorf(codes.NotFound, "Volume '%s' not found", vm.GetVolumeId())
		}
		p := vm.GetMountPath()
		if !path.IsAbs(p) || path.Clean(p) == "/" {
			return nil, status.Errorf(codes.InvalidArgument, "volume mount path %q must be an absolute path other than /", p)
		}
		if seen[path.Clean(p)] {
			return nil, status.Errorf(codes.InvalidArgument, "two volumes mounted at %q", p)
		}
		seen[path.Clean(p)] = true
		out = append(out, MountView{VolumeID: vm.GetVolumeId(), Path: p, ReadOnly: vm.GetReadOnly(), SubPath: vm.GetSubPath()})
	}
	return out, nil
}

// nameTaken reports a running sandbox of the app with the name; w.s.mu held.
func (w *Workspace) nameTaken(appID, name string) bool {
	if name == "" {
		return false
	}
	for _, sb := range w.sandboxes {
		if !sb.finished && sb.appID == appID && sb.name == name {
			return true
		}
	}
	return false
}

// start gives a validated sandbox its id and task and runs it; w.s.mu held.
func (w *Workspace) start(sb *sandbox) error {
	if w.nameTaken(sb.appID, sb.name) {
		return status.Errorf(codes.AlreadyExists, "Sandbox with name '%s' already exists in the App", sb.name)
	}
	if sb.v2 {
		sb.id = newV2SandboxID()
	} else {
		sb.id = newID("sb")
	}
	sb.taskID = newID("ta")
	sb.createdAt, sb.startedAt = w.now, w.now
	sb.pendingReads, sb.listHidden = w.unsettledReads(), w.unsettledReads()
	stamp := float64(w.now.UnixNano()) / 1e9
	if stamp <= w.lastStamp {
		stamp = w.lastStamp + 1e-6
	}
	w.lastStamp = stamp
	sb.stamp = stamp
	w.sandboxes[sb.id] = sb
	w.tasks[sb.taskID] = sb.id
	return nil
}

// envOfSecrets folds secret env dicts in order, later keys winning; w.s.mu held.
func (w *Workspace) envOfSecrets(ids []string) map[string]string {
	env := map[string]string{}
	for _, id := range ids {
		maps.Copy(env, w.secrets[id])
	}
	return env
}

// sandboxFor finds a sandbox by id for an RPC of one backend: V1 RPCs do
// not see V2 sandboxes and the other way round; w.s.mu held.
func (w *Workspace) sandboxFor(id string, v2 bool) (*sandbox, error) {
	sb, ok := w.sandboxes[id]
	if !ok || sb.v2 != v2 {
		return nil, status.Errorf(codes.NotFound, "Sandbox '%s' not found", id)
	}
	return sb, nil
}

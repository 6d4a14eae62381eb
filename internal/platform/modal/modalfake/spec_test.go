package modalfake

import (
	"sort"
	"strings"
	"testing"

	pb "github.com/modal-labs/modal-client/go/proto/modal_proto"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// implemented are the RPCs the fake serves, by service.
var implemented = map[string][]string{
	"modal.client.ModalClient": {
		"AppGetOrCreate", "AuthTokenGet", "EnvironmentGetOrCreate",
		"ImageDelete", "ImageFromId", "ImageGetOrCreate", "ImageJoinStreaming",
		"SandboxCreate", "SandboxCreateV2", "SandboxGetCommandRouterAccess",
		"SandboxGetFromName", "SandboxGetFromNameV2", "SandboxGetTaskId", "SandboxGetTaskIdV2",
		"SandboxList", "SandboxListV2", "SandboxRestore", "SandboxRestoreV2",
		"SandboxSnapshot", "SandboxSnapshotGet", "SandboxSnapshotWait",
		"SandboxTagsGet", "SandboxTagsGetV2", "SandboxTagsSet", "SandboxTagsSetV2",
		"SandboxTerminate", "SandboxTerminateV2", "SandboxWait", "SandboxWaitV2",
		"SecretGetOrCreate", "TaskGetCommandRouterAccess", "VolumeDelete", "VolumeGetOrCreate",
	},
	"modal.task_command_router.TaskCommandRouter": {
		"TaskExecStart", "TaskExecStdioRead", "TaskExecWait", "TaskSnapshotFilesystem", "TaskSnapshotMemory",
	},
}

// usedFields are the fields the fake reads or writes, by message.
var usedFields = map[string][]string{
	"modal.client.AppGetOrCreateRequest":                 {"app_name", "environment_name", "object_creation_type"},
	"modal.client.AppGetOrCreateResponse":                {"app_id"},
	"modal.client.AuthTokenGetResponse":                  {"token"},
	"modal.client.BaseImage":                             {"docker_tag", "image_id"},
	"modal.client.CommandRouterAccess":                   {"jwt", "url"},
	"modal.client.CreationInfo":                          {"created_at"},
	"modal.client.EnvironmentGetOrCreateRequest":         {"deployment_name", "object_creation_type"},
	"modal.client.EnvironmentGetOrCreateResponse":        {"environment_id", "metadata"},
	"modal.client.EnvironmentMetadata":                   {"name", "settings"},
	"modal.client.EnvironmentSettings":                   {"image_builder_version", "webhook_suffix"},
	"modal.client.GenericResult":                         {"status", "exception", "exitcode"},
	"modal.client.GPUConfig":                             {"count"},
	"modal.client.Image":                                 {"dockerfile_commands", "base_images", "secret_ids", "gpu_config", "context_files"},
	"modal.client.ImageDeleteRequest":                    {"image_id"},
	"modal.client.ImageFromIdRequest":                    {"image_id"},
	"modal.client.ImageFromIdResponse":                   {"image_id"},
	"modal.client.ImageGetOrCreateRequest":               {"image", "app_id", "existing_image_id", "build_function_id", "force_build", "builder_version"},
	"modal.client.ImageGetOrCreateResponse":              {"image_id", "result"},
	"modal.client.ImageJoinStreamingRequest":             {"image_id"},
	"modal.client.ImageJoinStreamingResponse":            {"result", "task_logs", "entry_id", "eof"},
	"modal.client.Resources":                             {"milli_cpu", "milli_cpu_max", "memory_mb", "memory_mb_max", "gpu_config"},
	"modal.client.RPCRetryPolicy":                        {"retry_after_secs"},
	"modal.client.Sandbox":                               {"image_id", "timeout_secs", "idle_timeout_secs", "name", "workdir", "resources", "cloud_bucket_mounts", "nfs_mounts", "volume_mounts", "secret_ids", "enable_snapshot"},
	"modal.client.SandboxCreateRequest":                  {"app_id", "definition", "tags"},
	"modal.client.SandboxCreateResponse":                 {"sandbox_id", "metadata"},
	"modal.client.SandboxCreateV2Request":                {"app_id", "definition", "ephemeral_secrets", "tags", "cloud_bucket_mount_credentials", "secret_sources"},
	"modal.client.SandboxCreateV2Response":               {"sandbox_id", "task_id", "metadata", "command_router_access"},
	"modal.client.SandboxGetCommandRouterAccessRequest":  {"sandbox_id", "task_id"},
	"modal.client.SandboxGetCommandRouterAccessResponse": {"jwt", "url"},
	"modal.client.SandboxGetFromNameRequest":             {"sandbox_name", "environment_name", "app_name", "include_terminated"},
	"modal.client.SandboxGetFromNameResponse":            {"sandbox_id", "metadata"},
	"modal.client.SandboxGetTaskIdRequest":               {"sandbox_id", "timeout", "wait_until_ready"},
	"modal.client.SandboxGetTaskIdResponse":              {"task_id", "task_result"},
	"modal.client.SandboxHandleMetadata":                 {"result", "app_id"},
	"modal.client.SandboxInfo":                           {"id", "created_at", "task_info", "app_id", "tags", "name", "image_id", "timeout_secs", "idle_timeout_secs", "metadata"},
	"modal.client.SandboxListRequest":                    {"app_id", "before_timestamp", "environment_name", "include_finished", "tags"},
	"modal.client.SandboxListResponse":                   {"sandboxes"},
	"modal.client.SandboxRestoreRequest":                 {"snapshot_id", "sandbox_name_override", "sandbox_name_override_type", "worker_id", "replace_volume_mounts", "volume_mounts"},
	"modal.client.SandboxRestoreResponse":                {"sandbox_id"},
	"modal.client.SandboxRestoreV2Request":               {"snapshot_id", "sandbox_name_override", "sandbox_name_override_type", "worker_id"},
	"modal.client.SandboxRestoreV2Response":              {"sandbox_id", "task_id", "metadata", "command_router_access"},
	"modal.client.SandboxSnapshotGetRequest":             {"snapshot_id"},
	"modal.client.SandboxSnapshotGetResponse":            {"snapshot_id", "handle_metadata"},
	"modal.client.SandboxSnapshotHandleMetadata":         {"is_v2"},
	"modal.client.SandboxSnapshotRequest":                {"sandbox_id"},
	"modal.client.SandboxSnapshotResponse":               {"snapshot_id"},
	"modal.client.SandboxSnapshotWaitRequest":            {"snapshot_id", "timeout"},
	"modal.client.SandboxSnapshotWaitResponse":           {"result"},
	"modal.client.SandboxTag":                            {"tag_name", "tag_value"},
	"modal.client.SandboxTagsGetRequest":                 {"sandbox_id"},
	"modal.client.SandboxTagsGetResponse":                {"tags"},
	"modal.client.SandboxTagsSetRequest":                 {"environment_name", "sandbox_id", "tags"},
	"modal.client.SandboxTerminateRequest":               {"sandbox_id"},
	"modal.client.SandboxTerminateResponse":              {"existing_result"},
	"modal.client.SandboxWaitRequest":                    {"sandbox_id", "timeout"},
	"modal.client.SandboxWaitResponse":                   {"result", "metadata"},
	"modal.client.SecretGetOrCreateRequest":              {"object_creation_type", "environment_name", "env_dict"},
	"modal.client.SecretGetOrCreateResponse":             {"secret_id"},
	"modal.client.SecretSource":                          {"secret_id", "env"},
	"modal.client.StringMap":                             {"contents"},
	"modal.client.TaskGetCommandRouterAccessRequest":     {"task_id"},
	"modal.client.TaskGetCommandRouterAccessResponse":    {"jwt", "url"},
	"modal.client.TaskInfo":                              {"id", "started_at", "finished_at", "result", "sandbox_id"},
	"modal.client.TaskLogs":                              {"data"},
	"modal.client.VolumeDeleteRequest":                   {"volume_id"},
	"modal.client.VolumeGetOrCreateRequest":              {"deployment_name", "environment_name", "object_creation_type", "version"},
	"modal.client.VolumeGetOrCreateResponse":             {"volume_id", "version", "metadata"},
	"modal.client.VolumeMetadata":                        {"version", "name", "creation_info"},
	"modal.client.VolumeMount":                           {"volume_id", "mount_path", "read_only", "sub_path"},

	"modal.task_command_router.TaskExecStartRequest": {"task_id", "exec_id", "command_args", "stdout_config", "stderr_config",
		"timeout_secs", "workdir", "secret_ids", "pty_info", "runtime_debug", "container_id", "env", "secret_sources"},
	"modal.task_command_router.TaskExecStdioReadRequest":       {"task_id", "exec_id", "offset", "file_descriptor"},
	"modal.task_command_router.TaskExecStdioReadResponse":      {"data"},
	"modal.task_command_router.TaskExecWaitRequest":            {"task_id", "exec_id"},
	"modal.task_command_router.TaskExecWaitResponse":           {"code", "signal"},
	"modal.task_command_router.TaskSnapshotFilesystemRequest":  {"task_id", "snapshot_id", "ttl_seconds", "container_id", "customer_supplied_encryption_key"},
	"modal.task_command_router.TaskSnapshotFilesystemResponse": {"image_id"},
	"modal.task_command_router.TaskSnapshotMemoryRequest":      {"task_id", "idempotency_key"},
	"modal.task_command_router.TaskSnapshotMemoryResponse":     {"snapshot_id"},
}

// sdkOnly are fields the fake uses that the SDK v0.11.1 has and the pinned
// official protos (older) do not: the SDK sends them, so the fake must read
// them. The test checks each is still absent from the spec, so the list
// shrinks when the spec is updated.
var sdkOnly = map[string]bool{
	// V2 creates send env vars and secrets as ordered sources.
	"modal.client.SandboxCreateV2Request.secret_sources": true,
	"modal.client.SecretSource.secret_id":                true,
	"modal.client.SecretSource.env":                      true,
	// FromName(IncludeTerminated) sends it.
	"modal.client.SandboxGetFromNameRequest.include_terminated": true,
	// Execs send env vars and secrets as ordered sources.
	"modal.task_command_router.TaskExecStartRequest.secret_sources": true,
	// Snapshots of sidecar containers.
	"modal.task_command_router.TaskSnapshotFilesystemRequest.container_id": true,
}

func loadSpecs(t *testing.T) map[string]*protoSpec {
	t.Helper()
	out := map[string]*protoSpec{}
	for _, s := range []interface{ Path() string }{apiSpec, routerSpec} {
		spec, err := parseProtoFile(s.Path())
		if err != nil {
			t.Fatal(err)
		}
		out[spec.pkg] = spec
	}
	return out
}

// splitFull cuts "modal.client.Sandbox" into package and message, knowing
// the two packages.
func splitFull(full string) (pkg, name string) {
	for _, p := range []string{"modal.task_command_router", "modal.client"} {
		if rest, ok := strings.CutPrefix(full, p+"."); ok {
			return p, rest
		}
	}
	return "", full
}

func sdkFiles() []protoreflect.FileDescriptor {
	return []protoreflect.FileDescriptor{pb.File_modal_proto_api_proto, pb.File_modal_proto_task_command_router_proto}
}

func sdkService(full string) protoreflect.ServiceDescriptor {
	for _, f := range sdkFiles() {
		if sd := f.Services().ByName(protoreflect.FullName(full).Name()); sd != nil && string(sd.FullName()) == full {
			return sd
		}
	}
	return nil
}

func sdkMessage(full string) protoreflect.MessageDescriptor {
	for _, f := range sdkFiles() {
		if f.Package() != protoreflect.FullName(full).Parent() {
			continue
		}
		if md := f.Messages().ByName(protoreflect.FullName(full).Name()); md != nil {
			return md
		}
	}
	return nil
}

// specType resolves a type named in a spec's rpc to a full name.
func specType(pkg, name string) string {
	if strings.Contains(name, ".") {
		return strings.TrimPrefix(name, ".")
	}
	return pkg + "." + name
}

// Every RPC the fake serves exists in the official spec and in the SDK
// with the same request and response types and streaming.
func TestImplementedRPCsMatchSpecAndSDK(t *testing.T) {
	specs := loadSpecs(t)
	for svc, methods := range implemented {
		pkg, svcName := splitFull(svc)
		spec := specs[pkg]
		sd := sdkService(svc)
		if spec == nil || sd == nil {
			t.Fatalf("service %s: spec %v, SDK %v", svc, spec != nil, sd != nil)
		}
		for _, m := range methods {
			r, ok := spec.rpcs[svcName+"."+m]
			if !ok {
				t.Errorf("%s.%s: not in the official spec", svc, m)
				continue
			}
			md := sd.Methods().ByName(protoreflect.Name(m))
			if md == nil {
				t.Errorf("%s.%s: not in the SDK", svc, m)
				continue
			}
			if got, want := string(md.Input().FullName()), specType(pkg, r.req); got != want {
				t.Errorf("%s.%s request: SDK %s, spec %s", svc, m, got, want)
			}
			if got, want := string(md.Output().FullName()), specType(pkg, r.resp); got != want {
				t.Errorf("%s.%s response: SDK %s, spec %s", svc, m, got, want)
			}
			if md.IsStreamingClient() != r.clientStream || md.IsStreamingServer() != r.serverStream {
				t.Errorf("%s.%s: streaming differs between SDK and spec", svc, m)
			}
		}
	}
}

// Every field the fake uses has the same name and number in the official
// spec and in the SDK (or is a recorded SDK-only field the spec lacks).
func TestUsedFieldsMatchSpecAndSDK(t *testing.T) {
	specs := loadSpecs(t)
	for _, msg := range sortedKeys(usedFields) {
		pkg, name := splitFull(msg)
		sdk := sdkMessage(msg)
		if sdk == nil {
			t.Errorf("%s: not in the SDK", msg)
			continue
		}
		specFields := specs[pkg].messages[name]
		for _, f := range usedFields[msg] {
			fd := sdk.Fields().ByName(protoreflect.Name(f))
			if fd == nil {
				t.Errorf("%s.%s: not in the SDK", msg, f)
				continue
			}
			n, inSpec := specFields[f]
			if sdkOnly[msg+"."+f] {
				if inSpec {
					t.Errorf("%s.%s is in the spec now (number %d): drop it from sdkOnly", msg, f, n)
				}
				continue
			}
			if !inSpec {
				t.Errorf("%s.%s: not in the official spec", msg, f)
				continue
			}
			if int(fd.Number()) != n {
				t.Errorf("%s.%s: SDK number %d, spec %d", msg, f, fd.Number(), n)
			}
		}
	}
}

// The messages of every implemented RPC are listed in usedFields, so a new
// handler cannot skip the pinning.
func TestEveryRPCMessageIsPinned(t *testing.T) {
	var missing []string
	for svc, methods := range implemented {
		sd := sdkService(svc)
		for _, m := range methods {
			md := sd.Methods().ByName(protoreflect.Name(m))
			if md == nil {
				continue // reported by TestImplementedRPCsMatchSpecAndSDK
			}
			for _, msg := range []protoreflect.MessageDescriptor{md.Input(), md.Output()} {
				full := string(msg.FullName())
				if strings.HasPrefix(full, "google.protobuf.") || msg.Fields().Len() == 0 {
					continue
				}
				if _, ok := usedFields[full]; !ok {
					missing = append(missing, full)
				}
			}
		}
	}
	sort.Strings(missing)
	// Requests whose fields the fake ignores entirely.
	ignored := map[string]bool{"modal.client.AuthTokenGetRequest": true}
	for _, m := range missing {
		if !ignored[m] {
			t.Errorf("%s: fields used by the fake are not listed in usedFields", m)
		}
	}
}

// The fallback copies in testdata, and the specs in use, are the official
// files byte for byte.
func TestSpecCopiesAreTheOfficialFiles(t *testing.T) {
	apiSpec.CheckCopies(t)
	routerSpec.CheckCopies(t)
}

// The parser reads both official files whole.
func TestSpecParses(t *testing.T) {
	specs := loadSpecs(t)
	api := specs["modal.client"]
	if api == nil || len(api.rpcs) < 100 || len(api.messages) < 300 {
		t.Fatalf("modal-api.proto parsed too little: %d rpcs, %d messages", len(api.rpcs), len(api.messages))
	}
	if n := api.messages["SandboxRestoreRequest"]["volume_mounts"]; n != 6 {
		t.Errorf("SandboxRestoreRequest.volume_mounts = %d, want 6", n)
	}
	if r := api.rpcs["ModalClient.ImageJoinStreaming"]; !r.serverStream {
		t.Errorf("ImageJoinStreaming is not parsed as server-streaming: %+v", r)
	}
}

// The list of implemented RPCs is what the fake serves: each answers an
// empty request with something other than UNIMPLEMENTED.
func TestImplementedListIsServed(t *testing.T) {
	w := srv.NewWorkspace(t)
	conn := rawConn(t, strings.TrimPrefix(srv.URL(), "http://"))
	ctx := metadata.AppendToOutgoingContext(ctxOf(t), "x-modal-token-id", w.TokenID(), "x-modal-token-secret", w.TokenSecret(),
		"x-modal-client-type", "9", "x-modal-client-version", "1.0.0", "x-idempotency-key", "k")
	tok, err := pb.NewModalClientClient(conn).AuthTokenGet(ctx, &pb.AuthTokenGetRequest{})
	if err != nil {
		t.Fatal(err)
	}
	ctx = metadata.AppendToOutgoingContext(ctx, "x-modal-auth-token", tok.GetToken())
	svc := "modal.client.ModalClient"
	sd := sdkService(svc)
	for _, m := range implemented[svc] {
		md := sd.Methods().ByName(protoreflect.Name(m))
		if md.IsStreamingServer() {
			continue
		}
		in, err := protoregistry.GlobalTypes.FindMessageByName(md.Input().FullName())
		if err != nil {
			t.Fatal(err)
		}
		out, err := protoregistry.GlobalTypes.FindMessageByName(md.Output().FullName())
		if err != nil {
			t.Fatal(err)
		}
		err = conn.Invoke(ctx, "/"+svc+"/"+m, in.New().Interface(), out.New().Interface())
		// The fake's own UNIMPLEMENTED answers (prefixed "modalfake:") refuse
		// a variant it does not model; the generated stub's mean no handler.
		if status.Code(err) == codes.Unimplemented && !strings.HasPrefix(status.Convert(err).Message(), "modalfake:") {
			t.Errorf("%s: %v", m, err)
		}
	}
	// Unimplemented answers given to empty requests (e.g. an object creation
	// type the fake does not model) are expected here.
	w.s.mu.Lock()
	w.unimplemented = nil
	w.s.mu.Unlock()
}

package modalfake

import "github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"

// kitFaultPlan is Modal under faults: its RPC methods. The SDK absorbs
// every fault but latency (ClientRetriesAll): it waits out
// RESOURCE_EXHAUSTED as the RPCRetryPolicy asks (the provider does so for
// the router's snapshots, which the SDK does not), and retries INTERNAL and
// UNAVAILABLE whether the server acted or not: a control-plane retry
// carries the first call's x-idempotency-key, which the server answers
// with the first answer, and a snapshot's its snapshot_id. A call held
// past the operation's timeout ends with DEADLINE_EXCEEDED, which the SDK
// does not retry past the deadline: the apply fails, the server never
// acted, and the next apply does the operation.
func kitFaultPlan() *platformtest.FaultPlan {
	// volume is the name of the matrix's volume on Modal.
	const volume = "fm-vol"
	// The kinds' resources; a kind's Deps are the others' as they are before an update.
	volumeHCL := platformtest.ResourceHCL("sbx_volume", "v", "  name = \""+volume+"\"", "", "")
	templateHCL := platformtest.ResourceHCL("sbx_template", "t", "  name  = \"fm-tpl\"\n  image = \""+kitImage+"\"", "", "")
	sandboxHCL := platformtest.ResourceHCL("sbx_sandbox", "b", "  name        = \"fm-box\"\n  template_id = sbx_template.t.id\n  labels      = { team = %s }", `"a"`, `"b"`)
	return &platformtest.FaultPlan{
		Client: platformtest.ClientRetriesAll,
		Kinds: []platformtest.FaultTarget{
			{
				Kind: platformtest.KindVolume,
				HCL:  volumeHCL,
				Routes: map[platformtest.Op]string{platformtest.OpCreate: "VolumeGetOrCreate", platformtest.OpRead: "VolumeGetOrCreate",
					platformtest.OpDelete: "VolumeDelete"},
				Why: map[platformtest.Op]string{platformtest.OpUpdate: "a Modal volume has nothing to change in place " +
					"(its name replaces it; labels, size_gb and region are refused at plan time)"},
			},
			{
				Kind: platformtest.KindTemplate,
				HCL:  templateHCL,
				Routes: map[platformtest.Op]string{platformtest.OpCreate: "ImageGetOrCreate", platformtest.OpRead: "ImageFromId",
					platformtest.OpDelete: "ImageDelete"},
				Why: map[platformtest.Op]string{platformtest.OpUpdate: "every change of a Modal template replaces it"},
			},
			{
				Kind: platformtest.KindSandbox, Deps: templateHCL(false, ""),
				HCL: sandboxHCL,
				Routes: map[platformtest.Op]string{platformtest.OpCreate: "SandboxCreateV2", platformtest.OpRead: "SandboxTagsGetV2",
					platformtest.OpUpdate: "SandboxTagsSetV2", platformtest.OpDelete: "SandboxTerminateV2"},
			},
			{
				Kind: platformtest.KindSnapshot, Deps: templateHCL(false, "") + sandboxHCL(false, ""),
				HCL: platformtest.ResourceHCL("sbx_snapshot", "s", "  sandbox_id = sbx_sandbox.b.id", "", ""),
				Routes: map[platformtest.Op]string{platformtest.OpCreate: "TaskSnapshotFilesystem", platformtest.OpRead: "ImageFromId",
					platformtest.OpDelete: "ImageDelete"},
				Why: map[platformtest.Op]string{platformtest.OpUpdate: "snapshots are immutable: every change replaces them"},
			},
		},
		Makes: []string{"SandboxCreate", "SandboxCreateV2", "SandboxRestore", "SandboxRestoreV2",
			"ImageGetOrCreate", "SandboxSnapshot", "TaskSnapshotFilesystem", "TaskSnapshotMemory"},
		Random: &platformtest.RandomRun{
			Kind:   platformtest.KindVolume,
			HCL:    platformtest.CountedVolumes("fm-vol", ""),
			Routes: []string{"VolumeGetOrCreate", "VolumeDelete"},
			Faults: []platformtest.FaultKind{platformtest.FaultRateLimit},
			Why: "the SDK waits out RESOURCE_EXHAUSTED as often as Modal asks, but gives INTERNAL and UNAVAILABLE " +
				"(a 500, a 503, a dropped connection or answer) up after 3 retries. The calls of a route share its sequence, " +
				"so one call's 4 attempts can all draw faults (about one run in ten at 200 objects), which no retry absorbs. " +
				"A dropped connection is worse: the SDK sends every call on one HTTP/2 connection, so one cut fails every call " +
				"in flight (10 at terraform's parallelism). The fault matrix covers those faults one call at a time.",
		},
	}
}

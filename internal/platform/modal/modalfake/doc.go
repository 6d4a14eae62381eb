// Package modalfake is a strict, stateful in-process fake of Modal's gRPC
// API for the provider's tests: the modal.client.ModalClient service and the
// TaskCommandRouter service, both implemented on the generated server
// interfaces of Modal's official Go SDK (github.com/modal-labs/modal-client/go,
// proto/modal_proto) and served over plaintext gRPC on loopback.
//
// The SDK reads MODAL_SERVER_URL from the process environment, so one Server
// serves every test of a package; tests are kept apart by workspaces, each
// with its own token id and secret (the x-modal-token-id metadata the SDK
// sends on every call picks the workspace).
//
// # Sources
//
// Messages and RPCs come from the SDK's generated code; spec_test.go lists
// every RPC and field the fake reads or writes and pins them to Modal's
// official protos in shared/specs (modal-api.proto,
// modal-task_command_router.proto; byte-identical copies in testdata, for
// clones without ../shared) and to the SDK's descriptors, by name and
// number. Fields the SDK sends that the (older) official files lack are
// listed there too, and checked to be still missing from them. Behaviour follows the
// official protos' comments, Modal's docs as summarised in
// shared/notes/platform-apis.md §4, and what the SDK (v0.11.1) expects of the
// server.
//
// # What is modelled
//
//   - Auth: AuthTokenGet answers a JWT with exp for a known token id/secret;
//     every other call needs a known token id/secret (UNAUTHENTICATED
//     otherwise), and unary calls also the x-modal-auth-token the workspace
//     was given. The router needs "authorization: Bearer <jwt>" minted by
//     SandboxGetCommandRouterAccess / TaskGetCommandRouterAccess for the task
//     it names.
//   - Apps (AppGetOrCreate lookup or CREATE_IF_MISSING), environments
//     (EnvironmentGetOrCreate: the default "main", with an image builder
//     version), ephemeral secrets (SecretGetOrCreate EPHEMERAL).
//   - Slow and asynchronous by default, as Modal is (async.go): builds
//     finish only when joined again, a new sandbox is scheduled only after
//     a read has shown it pending, lists leave out a sandbox made a moment
//     ago, V1 memory snapshots are done when waited for; Instant turns
//     this off for the tests that need it.
//   - Images: content-addressed ImageGetOrCreate answering without a result,
//     the build's result from ImageJoinStreaming; "RUN false" or "RUN exit N"
//     (N≠0) fails the layer; ImageFromId, ImageDelete; filesystem snapshots
//     are images that expire after their ttl on the workspace clock.
//   - Sandboxes, V2 (SandboxCreateV2 and friends) and V1 (SandboxCreate,
//     SandboxGetTaskId, ...): validation of the definition (app, ready image,
//     secrets and volumes exist; timeout and idle timeout 1..86400 s; names;
//     tags; resources), names unique among an app's running sandboxes,
//     scheduling after one read (async.go), wait
//     (holding a call with a timeout at most 50 ms of real time), terminate,
//     tags (full replace),
//     list (running only unless include_finished, newest first, paged by
//     before_timestamp), lookup by name, timeouts and idle timeouts on the
//     workspace clock.
//   - Snapshots: filesystem (router TaskSnapshotFilesystem, ttl required,
//     idempotent on snapshot_id) and memory (router TaskSnapshotMemory for
//     V2, SandboxSnapshot + SandboxSnapshotWait for V1; needs
//     enable_snapshot; terminates the sandbox; expires 7 days after creation),
//     SandboxSnapshotGet, SandboxRestore / SandboxRestoreV2.
//   - Exec (exec.go): router TaskExecStart (idempotent on exec_id; env
//     and secrets added to the box's environment; workdir; timeout_secs
//     kills with SIGKILL), TaskExecStdioRead (from an offset, ending when
//     the command has ended), TaskExecWait (exit code or signal); a
//     finished box's task is refused and a box that finishes kills its
//     commands. The fake runs no programs: exec.go lists the few it knows
//     (echo, printenv, pwd, true, false, sleep, a tiny sh -c); any other is
//     missing (exit 127).
//   - Volumes: VolumeGetOrCreate (UNSPECIFIED looks up, CREATE_IF_MISSING
//     creates a V2 volume or adopts the existing one), VolumeDelete.
//   - Faults, per method of either service (faults.go): Throttle
//     (RESOURCE_EXHAUSTED with an RPCRetryPolicy detail), Fail (a given
//     code, e.g. INTERNAL or UNAVAILABLE), DropRequest (the call's TCP
//     connection closed before the handler runs: the client sees
//     UNAVAILABLE) and Hold (the call waits in front of the handler until
//     its context ends, then DEADLINE_EXCEEDED or CANCELLED, or until a
//     delay passes, then it acts), all without acting; DropAnswer (act,
//     then UNAVAILABLE; the retry with the same x-idempotency-key gets the
//     first answer again).
//
// Every RPC the fake does not implement answers UNIMPLEMENTED and is
// recorded; a workspace's cleanup fails its test listing those calls and
// every protocol violation seen (missing client headers or idempotency key,
// a router JWT for another task).
//
// Not modelled: exec stdin and polling, the sandbox's own stdio, logs, tunnels, filesystem API, directory
// snapshots, mounting images, GPUs, cloud bucket mounts, named secrets,
// published images, functions, queues, dicts, environments other than the
// default.
package modalfake

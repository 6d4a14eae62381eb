// Package flyfake is a strict, stateful in-memory fake of Fly.io's Machines
// API (https://api.machines.dev/v1) for the provider's tests, built on
// internal/fakeapi like e2bfake and daytonafake.
//
// # Sources
//
// Every request and response of a route the spec has is validated against
// shared/specs/fly-openapi.yaml, an old (Dec 2023) derived copy of Fly's
// official spec, pinned by checksum with a byte-identical testdata copy
// (spec.go). kin-openapi loads it with examples unchecked: the file's
// examples do not match their own schemas (config: "{}"). Nothing else is
// changed; the file is never edited.
//
// Shapes the spec lacks come from Fly's official Go client superfly/fly-go
// (read, not copied) and are checked by hand (offspec.go):
//   - POST /apps/{app}/machines/{id}/suspend: flaps/flaps_machines.go
//     Suspend (no body).
//   - PUT /apps/{app}/volumes/{id}: flaps/flaps_volumes.go UpdateVolume with
//     volume_types.go UpdateVolumeRequest {snapshot_retention,
//     auto_backup_enabled}. The spec's POST Volumes_update is served too.
//   - GET .../wait with state=suspended, and wait's query as fly-go sends it
//     (flaps/flaps_machines_wait.go: state repeated, version as well as the
//     spec's instance_id).
//   - Volume's auto_backup_enabled and host_dedication_id, VolumeSnapshot's
//     volume_size and retention_days, CreateVolumeRequest's
//     auto_backup_enabled (volume_types.go): extra members the spec's open
//     objects allow.
//   - The start answer {previous_state} (machine_types.go
//     MachineStartResponse), the metadata POST body {"value"}
//     (flaps_machines.go SetMetadata), the error body {"error"} (the spec's
//     ErrorResponse, read by flaps/flaps.go handleAPIError), the Bearer or
//     FlyV1 Authorization header (fly-go auth.go), DELETE ?kill=true
//     (flaps_machines.go Destroy) as well as the docs' ?force=true.
//   - Null members: fly-go sends null for unset pointers; Fly reads null as
//     absent, the spec marks nothing nullable, so the fake drops null
//     members of a JSON body before validating it (server.go dropNulls).
//
// Behaviour follows Fly's docs as summarised in shared/notes/platform-apis.md
// §3. Error statuses and messages the docs do not give (409 for a taken
// machine name, 412 failed_precondition for actions from the wrong state,
// 422 for a taken app name, 400/404 for mount refusals) are the fake's
// choice, written where they are made.
//
// # What is modelled
//
//   - Auth: Authorization "Bearer <token>" or "FlyV1 <token>" equal to
//     Options.APIToken; anything else 401 {"error": ...}, before anything
//     else.
//   - Apps: list (org_slug), GET, POST {app_name, org_slug} (201; 422 when taken; 404 for
//     another org), DELETE (202, with the app's machines and volumes).
//   - Machines: create (config.image required; guest sizes as Fly sells
//     them, default shared-cpu-1x 256 MB; env; metadata; at most one mount of
//     an existing volume of the machine's region not attached elsewhere;
//     region default Options.DefaultRegion; name unique per app;
//     skip_launch), get, list (include_deleted, region, metadata.{key}=v
//     filters), update with a full config (same id, new instance_id; changing
//     the mounted volume refused; a suspended machine loses its snapshot),
//     start (from created, stopped or suspended), stop, suspend (from
//     started), delete (stopped/suspended/created, or force/kill), wait,
//     metadata get/set/delete. States: created → starting → started,
//     stopping → stopped, suspending → suspended, updating → starting →
//     started, destroying → destroyed, then 404.
//   - Slow and asynchronous by default, as Fly is (transitions_test.go):
//     a create without skip_launch answers "created" and launches, reading
//     created, then starting, then started; each transitional state shows
//     for Options.Polls-1 GETs (default 1), advancing by reads, never
//     by wall time; a wait for a transition's target settles it at once.
//     A start of a machine launching, starting or started is refused 412
//     "failed_precondition: machine still active, refusing to start"
//     (Fly's wording); stop, suspend, update and an unforced delete of a
//     machine between states are refused 412 until it settles. The first
//     list of an app after a create omits the new machine. Options.Instant
//     settles everything before answering, for tests about something else.
//     Events, newest first:
//     launch, start (status "resumed" from a suspend snapshot, "started" on
//     a cold boot), exit, suspend, update, destroy.
//   - Suspend snapshots: kept unless Options.LoseSuspendSnapshots or
//     LoseSuspendSnapshot; a start without one is a cold boot (ColdBoots in
//     the view, a "started" start event after a "snapshot_discarded" one).
//   - wait: 200 {"ok": true} when reached, 400 without instance_id/version
//     for stopped, 408 when no pending transition gets there within
//     Options.WaitBlock (real time) or the timeout on Clock.
//   - Volumes: create (name rules, size_gb default 3 and at most 500,
//     snapshot_retention default 5 within 1-60, encrypted and
//     auto_backup_enabled default true, fstype ext4/raw, snapshot_id restores
//     with size ≥ the snapshot's volume size), get, list (the API lists
//     scheduling_destroy volumes, which fly-go's GetVolumes hides
//     client-side; destroyed ones are not listed), update, extend (grow only;
//     needs_restart when mounted by a started machine), delete (refused
//     while attached; scheduling_destroy, destroyed at the Polls-th GET,
//     readable 24 h).
//   - Volume snapshots: list newest first (fly-go keeps the API's order),
//     on-demand create answering 200 without a body (waiting, running,
//     created over successive lists), an automatic snapshot every day after
//     a volume's creation on Options.Clock while auto_backup_enabled, each
//     expiring retention_days (the volume's retention when it was taken)
//     after it. No delete endpoint.
//   - Rate limits (Options.RateLimits, on the wall clock or
//     Options.RateClock): per route and machine or app, 1/s burst 3, Get
//     Machine 5/s burst 10; 429 {"error"} with
//     Retry-After in seconds (Fly documents no header; fly-go reads none).
//   - Faults (Inject): a status instead of handling, a status after
//     handling (408 on a create whose machine exists), dropped connections
//     before or after handling, latency; Requests counts per route.
//   - Exec (exec.go): POST .../exec with the spec's MachineExecRequest
//     (command argv, timeout seconds), answered with fly-go's
//     MachineExecResponse {exit_code, stdout, stderr} once the command
//     ended; only in a started machine (else 412, the fake's choice). The
//     fake runs no real program: a documented handful (echo, printenv of
//     the machine's env, pwd, true, false, seq, sleep, sh -c with exit and
//     echo); any other exits 127. ExecRuns lists what ran; ExecsSleeping
//     counts the sleeps it holds now.
//
// Out-of-band changes: CreateApp, SnapshotOutOfBand, SuspendOutOfBand, StopOutOfBand,
// LoseSuspendSnapshot, DestroyMachineOutOfBand, DestroyVolumeOutOfBand.
// Views: Machine, Machines, Volume, Volumes, Snapshots, Apps,
// MachineCreates, RateLimited, ExecRuns, ExecsSleeping.
//
// Not modelled: leases and nonces, cordon, restart, signal, ps,
// versions and events endpoints, volume forks
// (source_volume_id answers 501), require_unique_zone, capacity errors,
// services and checks.
package flyfake

// Package daytonafake is a stateful, in-memory fake of Daytona's control-plane
// API (v0.190.0) for tests. Every request it receives and every response it
// writes is checked with kin-openapi against the official OpenAPI document
// (see SpecPath); a mismatch is reported through the test's Errorf and kept
// in SpecViolations. A bad request also gets a 400, an unknown route a 404,
// a spec operation the fake does not serve a 501. That checking, the fault
// queue and the writing of replies are fakeapi's, shared with the other
// platform fakes; this package is Daytona's state and rules.
//
// Semantics, as Daytona's server code at v0.190.0 (daytonaio/daytona
// b5a5d9e78, apps/api/src/...) behaves; each handler cites its lines:
//   - Auth: only "Authorization: Bearer <Options.APIKey>", else 401. A foreign
//     X-Daytona-Organization-ID is a 403 (stricter than the server, which reads
//     it for JWTs only). Errors are NestJS bodies {path, timestamp,
//     statusCode, error, message} (filters/all-exceptions.filter.ts).
//   - Asynchrony: the server records a wish (desiredState) and reconciles
//     state toward it on crons and runner jobs; the fake moves each object
//     one transitional state per read by id or name (Options.Polls reads
//     each), never by wall-clock time, and every state Daytona passes
//     through is seen by a read before the object settles: a sandbox
//     creating → started, starting, stopping, archiving, restoring (an
//     archived box), resuming, pausing, resizing, snapshotting, destroying;
//     a snapshot pending → pulling or building → active, removing; a volume
//     pending_create → creating → ready, pending_delete → deleting →
//     deleted. An action's answer shows where the box is going as the DTO
//     does (a stop answers "stopping"). GET /sandbox leaves a new box out
//     of the next list (Options.ListLagLists). Lists do not move
//     transitions; SettleAll finishes everything at once, and
//     Options.Instant settles each change inside its request, for tests
//     whose subject is not the wait. A request that needs a box at rest
//     while a change is pending gets StateChangeInProgressError (409); a
//     box create from a snapshot not active, a mount of a volume not ready,
//     are refused by name and state.
//   - Snapshots: POST /snapshots (image or buildInfo, exclusive; image tag
//     required, ":latest" refused; name unique per organization → 409;
//     windows refused) goes pending → pulling|building → active, or error
//     (pull) / build_failed (build) after FailNextBuild or when a build's
//     context hash was never uploaded. GET by id or name, paged list,
//     DELETE (removing → gone), activate (inactive only, 10 min after
//     deactivation), deactivate, build logs served by the fake. Unused for
//     Options.SnapshotDeactivation (14 days) on the clock → inactive; a box
//     cannot be created from an inactive snapshot.
//   - Object storage: GET /object-storage/push-access issues credentials for
//     a path-style S3 at URL()+"/_fake/s3" (ListObjectsV2, PutObject,
//     GetObject) that verifies AWS SigV4 and unpacks context tars
//     (ContextFiles).
//   - Sandboxes: create from a snapshot id or name (default
//     Options.DefaultSnapshot), resources refused, name unique → 409,
//     interval defaults 15 / 10080 / -1, auto-archive 0 → max and clamped,
//     volumes by id or name (ready only) with mount path and subpath rules,
//     network allow list rules, per-sandbox limits (Options.MaxCPUPerSandbox
//     ...) on creates, starts and resizes. start/stop/pause/archive/resize/recover/
//     snapshot/delete follow sandbox.service.ts rule for rule, including
//     pause and resume only for linux-vm and windows (422 otherwise),
//     ephemeral boxes deleted on stop, memory snapshots only for windows.
//     A snapshot of a box is not there while the box is snapshotting; the
//     job inserts it active when done (a read of the box or of the
//     snapshot's name moves the job on), or makes none when its name was
//     taken meanwhile.
//     Deleting renames the box at once (its name is free) and the GET that
//     finds it destroyed answers 404. Labels, intervals, network settings
//     and the public flag update in place. Lists page with cursors and, with
//     Options.ListLag, lag creates as the spec's "eventually consistent"
//     list may.
//   - Clock (Options.Clock): on each request and view, started boxes idle
//     past autoStopInterval stop (ephemeral ones are deleted), stopped boxes
//     are archived after autoArchiveInterval or deleted after
//     autoDeleteInterval (>= 0), each measured from the last activity.
//   - Volumes: create (taken name → 400), pending_create → creating → ready;
//     delete is 409 while a box not being destroyed mounts it, else
//     pending_delete → deleting → deleted, renamed "<name>-deleted" (the id
//     still answers, the name does not).
//   - Toolbox (execute.go): each box's toolboxProxyUrl points at the fake,
//     which serves the daemon's POST <toolboxProxyUrl>/<id>/process/execute
//     as the SDKs call it, checked against the spec's ExecuteRequest and
//     ExecuteResponse (the deprecated API route itself answers 501 and is a
//     violation). The command string is split as the daemon's parseCommand
//     splits it and run without a shell, in a started box only (else 400,
//     the fake's choice); exitCode and the merged output come back, a
//     timeout past is a 408. The fake runs no real program: a documented
//     handful (echo, printenv of the box's env, pwd, true, false, seq,
//     sleep, sh -c with exit and echo); any other cannot start (exitCode
//     -1), as the daemon reports it. ExecRuns lists what ran;
//     ExecsSleeping counts the sleeps it holds now.
//
// Faults (Inject) add statuses (429 with Daytona's per-throttler headers),
// dropped connections before or after the state change, and latency to
// chosen routes; Options.CreateRateLimit throttles creates on the clock.
// Out-of-band methods change state as the platform or another user would;
// views (Sandbox, Snapshot, Volume and their lists) copy state for
// assertions.
package daytonafake

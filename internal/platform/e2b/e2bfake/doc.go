// Package e2bfake is a stateful, in-memory fake of the E2B control-plane API
// for tests. Every request it receives and every response it writes is checked
// with kin-openapi against the official OpenAPI document (see SpecPath); a
// mismatch is reported through the test's Errorf and kept in SpecViolations.
// A bad request also gets a 400, an unknown route a 404. That checking, the
// fault queue and the writing of replies are fakeapi's, shared with the other
// platform fakes; this package is E2B's state and rules.
//
// Semantics, as E2B behaves (see shared/notes/platform-apis.md, section 1):
//   - Auth: only X-API-Key equal to Options.APIKey; anything else is a 401.
//   - The fake is slow and asynchronous by default, where E2B is: a build and
//     a pause E2B makes on its own pass their transitional states for at
//     least one read (below); Options.Instant settles them at once, for the
//     tests that say why they need it. Creates, resumes and pauses by
//     request are synchronous on E2B, and so here (pausing.go cites where).
//   - Templates: POST /v3/templates with a name already in use is a new build
//     of that template. A build answers "waiting" until POST
//     /v2/templates/{id}/builds/{b} starts it, then "building" to status polls
//     until the Options.BuildPolls-th poll, which finds it "ready" (or
//     "error", after FailNextBuild or when a step's files were never
//     uploaded). A box from a template with no ready build is a 404. Build files
//     are uploaded to the URL GET /templates/{id}/files/{hash} returns, which
//     points back at the fake (UploadRoute).
//   - Sandboxes: templateID may be a template ID or name (optionally
//     "slug/name" and ":tag") or a snapshot ID. An omitted timeout is 15 s and
//     recorded (SandboxView.TimeoutOmitted). Whenever a request arrives (or a
//     view is read), running sandboxes whose end time is not after the clock
//     begin to pause (autoPause) or are removed. A box that pauses on its own
//     or out of band is "pausing" for Options.PauseReads reads (it shows as
//     "paused"; a snapshot, timeout or network change of it is a 409, a pause
//     is joined). connect resumes a paused sandbox (201)
//     or only extends a running one's end (200); timeout overwrites the end of a
//     running sandbox (a paused one is not found).
//   - Snapshots are templates: they are listed by GET /snapshots (newest first)
//     and deleted by DELETE /templates/{snapshotID}.
//   - Lists page with limit/nextToken and X-Next-Token; a token names the first
//     item of the next page, so deletions between pages skip nothing.
//   - Lists lag creates when Options.ListLag is set: a new sandbox, volume,
//     template or snapshot is left out of every list until ListLag has passed
//     on the clock, as E2B's eventually consistent listings do; reads by id
//     find it at once. The object of a create whose answer was lost
//     (Fault.DropAfterHandling) is then not listed right away either.
//
// Faults (Inject) add 4xx/5xx answers, Retry-After, dropped connections before
// or after the state change, and latency to chosen routes; Fault.Before runs
// what another client does just before a request is handled (a box that
// begins to pause as a snapshot of it is sent).
package e2bfake

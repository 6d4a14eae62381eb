// Package modal is Modal as a platform of the provider, through Modal's
// official Go SDK (github.com/modal-labs/modal-client/go), the only way it
// talks to Modal: the SDK owns auth, retries (Modal's server retry policy,
// idempotency keys) and the task command router. Templates are Images,
// sandboxes are Sandboxes of one App, volumes are Volumes (v2) by name, and
// snapshots are filesystem snapshots (Images with a ttl) or memory
// snapshots, recorded in their sandbox's tags since Modal lists neither.
// Commands (the sbx_sandbox_exec action) run through Sandbox.Exec, which
// reaches the sandbox's task command router (TaskExecStart,
// TaskExecStdioRead, TaskExecWait).
package modal

# The newest nightly snapshot of the agent workspace that has not expired.
data "sbx_snapshot" "latest_nightly" {
  name_regex  = "^nightly-"
  labels      = { app = "agent" }
  most_recent = true
}

# Start a fresh box from it (restoring always makes a new sandbox).
resource "sbx_sandbox" "resumed" {
  name             = "agent-resumed"
  from_snapshot_id = data.sbx_snapshot.latest_nightly.id
}

# One snapshot by id, e.g. from another configuration's output.
data "sbx_snapshot" "pinned" {
  id = "sha256:4f1c0c8e2d9a"
}

output "nightly_expires_at" {
  value = data.sbx_snapshot.latest_nightly.expires_at
}

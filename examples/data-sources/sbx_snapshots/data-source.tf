# Every snapshot taken of one volume, newest first, expired ones included.
data "sbx_snapshots" "workspace" {
  volume_id       = "agent-workspace"
  include_expired = true
}

output "workspace_snapshot_ids" {
  value = data.sbx_snapshots.workspace.ids
}

# Snapshots that the platform will delete within a week.
output "expiring_soon" {
  value = [
    for s in data.sbx_snapshots.workspace.snapshots : s.name
    if s.expires_at != null && timecmp(s.expires_at, timeadd(plantimestamp(), "168h")) < 0
  ]
}

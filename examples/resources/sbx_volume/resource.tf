# A persistent volume for an agent's workspace. On Docker it is a Docker
# volume of this name; labels change in place (the data is kept) while no
# sandbox mounts it.
resource "sbx_volume" "workspace" {
  name = "agent-workspace"

  labels = {
    team = "platform"
  }
}

# A copy of the volume's contents, and a new volume restored from it
# (restoring always makes a new volume; the snapshot is left as it is).
resource "sbx_snapshot" "workspace_backup" {
  volume_id = sbx_volume.workspace.id
  name      = "agent-workspace-backup"
}

resource "sbx_volume" "restored" {
  name             = "agent-workspace-restored"
  from_snapshot_id = sbx_snapshot.workspace_backup.id
}

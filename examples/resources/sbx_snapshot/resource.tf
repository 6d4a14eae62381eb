resource "sbx_template" "agent" {
  name        = "agent"
  dockerfile  = file("${path.module}/agent/Dockerfile")
  context_dir = "${path.module}/agent"
}

resource "sbx_volume" "work" {
  name = "agent-work"
}

resource "sbx_sandbox" "agent" {
  template_id = sbx_template.agent.id

  volume_mount {
    volume_id = sbx_volume.work.id
    path      = "/work"
  }
}

# A checkpoint of the sandbox's filesystem (docker commit on Docker).
resource "sbx_snapshot" "agent" {
  sandbox_id = sbx_sandbox.agent.id
  name       = "agent-checkpoint"

  labels = {
    purpose = "branch"
  }
}

# Branch: a new sandbox starts from the checkpoint. A snapshot of it names
# sbx_snapshot.agent as its parent_snapshot_id.
resource "sbx_sandbox" "branch" {
  from_snapshot_id = sbx_snapshot.agent.id
}

# A copy of the volume's contents, restorable into a new volume.
resource "sbx_snapshot" "work" {
  volume_id = sbx_volume.work.id
  name      = "agent-work-backup"
}

resource "sbx_volume" "work_restored" {
  name             = "agent-work-restored"
  from_snapshot_id = sbx_snapshot.work.id
}

# A snapshot is a checkpoint: when its box is replaced or lost, the plan keeps
# the snapshot (with a warning) instead of replacing it. To take a fresh
# checkpoint of every new box instead, trigger the replacement explicitly.
# terraform_data sees a new box id even when the old box was deleted outside
# Terraform, which replace_triggered_by on the box alone does not.
resource "terraform_data" "agent_box" {
  triggers_replace = sbx_sandbox.agent.id
}

resource "sbx_snapshot" "latest" {
  sandbox_id = sbx_sandbox.agent.id
  name       = "agent-latest"

  lifecycle {
    replace_triggered_by = [terraform_data.agent_box]
  }
}

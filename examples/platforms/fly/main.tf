# An agent machine on Fly.io: a template that records a prebuilt image, a
# machine that suspends (memory kept) in place, its work on a volume that
# grows in place and keeps two weeks of snapshots, and a snapshot to
# restore from.
# export FLY_API_TOKEN=... before terraform plan.
terraform {
  required_providers {
    sbx = { source = "sbxhq/sbx" }
  }
}

provider "sbx" {
  fly {
    app    = "agents" # or FLY_APP; created when org (FLY_ORG) is set and it is missing
    region = "iad"    # or FLY_REGION
  }
}

# Fly has no build API: build and push the image yourself, then record it.
resource "sbx_template" "agent" {
  name  = "coding-agent"
  image = "registry.fly.io/agents:deployment-01"
}

resource "sbx_volume" "work" {
  name               = "agent_work"
  size_gb            = 3
  snapshot_retention = 14
}

resource "sbx_sandbox" "box" {
  name        = "agent-1"
  template_id = sbx_template.agent.id
  state       = "running" # "paused" suspends the machine in place
  cpu_count   = 1
  memory_mb   = 1024
  env         = { TASK = "triage" }
  labels      = { team = "agents" }

  volume_mount {
    volume_id = sbx_volume.work.id
    path      = "/work"
  }
}

# A volume snapshot: Fly cannot delete one, so destroy forgets it (with a
# warning) and it expires after the volume's snapshot_retention days.
resource "sbx_snapshot" "checkpoint" {
  volume_id = sbx_volume.work.id
}

output "snapshot_expires_at" {
  value = sbx_snapshot.checkpoint.expires_at
}

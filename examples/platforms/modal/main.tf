# An agent sandbox on Modal: a template built by Modal's image builder, a
# sandbox that can take memory snapshots, its work on a volume mounted
# read-only beside a writable one, and a filesystem snapshot to branch from.
# export MODAL_TOKEN_ID=... MODAL_TOKEN_SECRET=... (or run `modal setup`,
# which writes ~/.modal.toml) before terraform plan.
terraform {
  required_providers {
    sbx = { source = "sbxhq/sbx" }
  }
}

provider "sbx" {
  modal {
    app = "agents" # looked up, or created at the first apply; never deleted
  }
}

# FROM is the base image; the other lines are built by Modal. Modal's SDK
# uploads no build context, so a COPY of local files is a plan-time error.
resource "sbx_template" "agent" {
  name       = "coding-agent"
  dockerfile = <<-EOT
    FROM python:3.12-slim
    RUN pip install --no-cache-dir requests
    ENV AGENT_HOME=/work
  EOT
}

resource "sbx_volume" "work" {
  name = "agent-work"
}

resource "sbx_volume" "reference" {
  name = "agent-reference"
}

resource "sbx_sandbox" "box" {
  name             = "agent-1"
  template_id      = sbx_template.agent.id
  timeout          = "2h"  # Modal ends the sandbox then (at most 24h)
  idle_timeout     = "30m" # or after this long without activity
  cpu_count        = 1
  memory_mb        = 2048
  memory_snapshots = true # lets sbx_snapshot take its memory too
  env              = { TASK = "triage" }
  labels           = { team = "agents" } # Modal tags, changed in place

  volume_mount {
    volume_id = sbx_volume.work.id
    path      = "/work"
  }

  volume_mount {
    volume_id = sbx_volume.reference.id
    path      = "/reference"
    read_only = true
  }
}

# A filesystem snapshot: an Image Modal deletes after its ttl (or on destroy).
resource "sbx_snapshot" "checkpoint" {
  sandbox_id = sbx_sandbox.box.id
  ttl        = "72h"
}

output "snapshot_expires_at" {
  value = sbx_snapshot.checkpoint.expires_at
}

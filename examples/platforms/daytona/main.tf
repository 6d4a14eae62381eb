# An agent box on Daytona: a template (a Daytona snapshot) built from a
# Dockerfile, a box that stops after 30 idle minutes and is archived after
# two days stopped, its work on a volume sub-directory, and a snapshot to
# start new boxes from.
# export DAYTONA_API_KEY=... before terraform plan.
terraform {
  required_providers {
    sbx = { source = "sbxhq/sbx" }
  }
}

provider "sbx" {
  daytona {
    target = "us" # or DAYTONA_TARGET
  }
  retention {
    warn_before = "72h"
  }
}

# Daytona sizes every box from its template, in whole GiB.
resource "sbx_template" "agent" {
  name        = "coding-agent-1"
  dockerfile  = <<-EOT
    FROM python:3.12-slim
    RUN apt-get update && \
        apt-get install -y --no-install-recommends git && \
        rm -rf /var/lib/apt/lists/*
    COPY requirements.txt /opt/agent/
    RUN pip install -r /opt/agent/requirements.txt
    ENV PYTHONUNBUFFERED=1
  EOT
  context_dir = "${path.module}/agent"
  cpu_count   = 2
  memory_mb   = 4096
  disk_mb     = 10240
}

resource "sbx_volume" "work" {
  name = "agent-work"
}

resource "sbx_sandbox" "box" {
  name               = "agent-1"
  template_id        = sbx_template.agent.id
  idle_timeout       = "30m"
  auto_archive_after = "48h"
  env                = { TASK = "triage" }
  labels             = { team = "agents" }

  volume_mount {
    volume_id = sbx_volume.work.id
    path      = "/work"
    subpath   = "agent-1"
  }
}

# A filesystem snapshot: Daytona takes memory only of Windows-class boxes.
resource "sbx_snapshot" "checkpoint" {
  sandbox_id = sbx_sandbox.box.id
  name       = "agent-1-checkpoint"
}

output "template_expires_at" {
  description = "When Daytona deactivates the template if no box starts from it."
  value       = sbx_template.agent.expires_at
}

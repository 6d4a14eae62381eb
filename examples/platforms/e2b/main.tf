# An agent box on E2B: a template built from a Dockerfile, a box that pauses
# (memory kept) when its hour is up, and a snapshot to branch from.
# export E2B_API_KEY=... before terraform plan.
terraform {
  required_providers {
    sbx = { source = "sbxhq/sbx" }
  }
}

provider "sbx" {
  e2b {
    tier = "pro"
  }
  max_retries = 6
}

resource "sbx_template" "agent" {
  name        = "coding-agent"
  dockerfile  = <<-EOT
    FROM python:3.12-slim
    RUN apt-get update && \
        apt-get install -y --no-install-recommends git && \
        rm -rf /var/lib/apt/lists/*
    COPY --chown=user requirements.txt /home/user/
    RUN pip install -r /home/user/requirements.txt
    ENV PYTHONUNBUFFERED=1
  EOT
  context_dir = "${path.module}/agent"
  start_cmd   = "python -m http.server 8000"
  ready_cmd   = "curl -sf localhost:8000"
  cpu_count   = 2
  memory_mb   = 2048
}

resource "sbx_sandbox" "box" {
  name        = "agent-1"
  template_id = sbx_template.agent.id
  timeout     = "1h"
  on_timeout  = "pause"
  env         = { TASK = "triage" }
  labels      = { team = "agents" }
}

# include_memory is left out: E2B snapshots always hold memory, and that is
# what the provider plans, so the same block works on Docker (filesystem).
resource "sbx_snapshot" "checkpoint" {
  sandbox_id = sbx_sandbox.box.id
  name       = "agent-1-checkpoint"
}

output "expires_at" {
  value = sbx_sandbox.box.expires_at
}

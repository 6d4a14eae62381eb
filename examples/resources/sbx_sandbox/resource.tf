# A template built from a Dockerfile, a volume that outlives the sandbox,
# and a sandbox that runs the agent with the volume mounted at /workspace.
resource "sbx_template" "agent" {
  name        = "agent"
  dockerfile  = file("${path.module}/agent/Dockerfile")
  context_dir = "${path.module}/agent"
}

resource "sbx_volume" "workspace" {
  name = "agent-workspace"
}

resource "sbx_sandbox" "agent" {
  # Naming the box lets an interrupted apply find it again instead of
  # making a second one.
  name        = "agent-1"
  template_id = sbx_template.agent.id

  # "paused" or "stopped" pause or stop the box in place; "running" resumes it.
  state = "running"

  cpu_count = 1
  memory_mb = 512

  # A deadline: one hour after each start the box is paused (E2B-style).
  # Platforms that enforce deadlines act on it; on Docker it is tracked
  # only: expires_at, plan warnings and the drift detector.
  timeout    = "1h"
  on_timeout = "pause"

  env = {
    AGENT_FILES = "/workspace/hello.txt=hello" # stored in the state (sensitive: never shown in plans or logs)
  }

  # Write-only (Terraform 1.11 and later): sent to the box with env, never
  # stored in the plan or the state, so it may be ephemeral. Terraform cannot
  # see the value change: bump env_wo_version to apply a new one.
  env_wo         = { API_TOKEN = var.api_token }
  env_wo_version = 1

  labels = {
    team = "platform"
  }

  volume_mount {
    volume_id = sbx_volume.workspace.id
    path      = "/workspace"
  }

  timeouts {
    create = "15m"
  }
}

variable "api_token" {
  type      = string
  sensitive = true
  ephemeral = true
}

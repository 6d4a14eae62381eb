# The quickstart: a template, a volume, a running sandbox writing to the
# volume, a snapshot of that sandbox, and a second sandbox restored from it.
# Runs on the local Docker engine; `make demo` builds ./build/agent first.

terraform {
  required_providers {
    sbx = {
      source = "sbxhq/sbx"
    }
  }
}

# No platform block: the local Docker engine (DOCKER_HOST or the local socket).
provider "sbx" {}

resource "sbx_template" "agent" {
  name        = "quickstart-agent"
  dockerfile  = file("${path.module}/Dockerfile")
  context_dir = "${path.module}/build/agent"
  ready_cmd   = "/agent ready"
  labels = {
    project = "quickstart"
  }
}

# The volume outlives every sandbox: it is where the work is kept.
resource "sbx_volume" "workspace" {
  name = "quickstart-workspace"
  labels = {
    project = "quickstart"
  }
}

resource "sbx_sandbox" "agent" {
  name        = "quickstart-agent"
  template_id = sbx_template.agent.id
  env = {
    AGENT_FILES    = "/work/notes.txt=written before the snapshot;/data/hello.txt=kept on the volume"
    AGENT_LOG      = "/data/agent.log"
    AGENT_INTERVAL = "30s"
  }
  volume_mount {
    volume_id = sbx_volume.workspace.id
    path      = "/data"
  }
  labels = {
    project = "quickstart"
  }
}

# A filesystem snapshot of the box: an immutable checkpoint to branch from.
resource "sbx_snapshot" "checkpoint" {
  sandbox_id = sbx_sandbox.agent.id
  name       = "quickstart-checkpoint"
  labels = {
    project = "quickstart"
  }
}

# A new box restored from the snapshot: it sees /work/notes.txt.
resource "sbx_sandbox" "restored" {
  name             = "quickstart-restored"
  from_snapshot_id = sbx_snapshot.checkpoint.id
  labels = {
    project = "quickstart"
  }
}

output "template_id" {
  value = sbx_template.agent.id
}

output "volume_id" {
  value = sbx_volume.workspace.id
}

output "sandbox_id" {
  value = sbx_sandbox.agent.id
}

output "snapshot_id" {
  value = sbx_snapshot.checkpoint.id
}

output "restored_sandbox_id" {
  value = sbx_sandbox.restored.id
}

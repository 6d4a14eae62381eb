# Import an existing snapshot by its identity (Terraform 1.12+).
import {
  to = sbx_snapshot.agent
  identity = {
    id = "sha256:3f1c0a6e9d2b4c5a7e8f90123456789abcdef0123456789abcdef0123456789a"
  }
}

resource "sbx_snapshot" "agent" {
  sandbox_id = sbx_sandbox.agent.id
  name       = "agent-checkpoint"
}

# Import an existing snapshot with an import block (Terraform 1.5+).
import {
  to = sbx_snapshot.agent
  id = "sha256:3f1c0a6e9d2b4c5a7e8f90123456789abcdef0123456789abcdef0123456789a"
}

resource "sbx_snapshot" "agent" {
  sandbox_id = sbx_sandbox.agent.id
  name       = "agent-checkpoint"
}

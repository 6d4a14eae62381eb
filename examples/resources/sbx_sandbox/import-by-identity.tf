# Import an existing sandbox by its identity (Terraform 1.12+). On Docker the
# id is the full container id.
import {
  to = sbx_sandbox.agent
  identity = {
    id       = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
    platform = "docker"
  }
}

resource "sbx_sandbox" "agent" {
  name        = "agent-1"
  template_id = "sbx/agent:latest"
}

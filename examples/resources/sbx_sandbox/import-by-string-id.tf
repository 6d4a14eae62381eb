# Import an existing sandbox with an import block (Terraform 1.5+). On
# Docker the id is the full container id.
import {
  to = sbx_sandbox.agent
  id = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
}

resource "sbx_sandbox" "agent" {
  name        = "agent-1"
  template_id = "sbx/agent:latest"
}

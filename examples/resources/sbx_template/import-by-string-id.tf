# Import an existing template with an import block (Terraform 1.5+).
import {
  to = sbx_template.agent
  id = "sbx/agent:latest"
}

resource "sbx_template" "agent" {
  name        = "agent"
  dockerfile  = file("${path.module}/agent/Dockerfile")
  context_dir = "${path.module}/agent"
}

# Import an existing template by its identity (Terraform 1.12+).
import {
  to = sbx_template.agent
  identity = {
    id = "sbx/agent:latest"
  }
}

resource "sbx_template" "agent" {
  name        = "agent"
  dockerfile  = file("${path.module}/agent/Dockerfile")
  context_dir = "${path.module}/agent"
}

# Import an existing volume by its identity (Terraform 1.12+). On Docker the
# id is the volume's name; platform, when given, must be the configured one.
import {
  to = sbx_volume.workspace
  identity = {
    id       = "agent-workspace"
    platform = "docker"
  }
}

resource "sbx_volume" "workspace" {
  name = "agent-workspace"
}

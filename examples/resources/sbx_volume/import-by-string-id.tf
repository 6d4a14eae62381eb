# Import an existing volume with an import block (Terraform 1.5+). On Docker
# the id is the volume's name.
import {
  to = sbx_volume.workspace
  id = "agent-workspace"
}

resource "sbx_volume" "workspace" {
  name = "agent-workspace"
}

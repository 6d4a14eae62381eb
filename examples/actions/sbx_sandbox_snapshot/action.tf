resource "sbx_template" "agent" {
  name        = "agent"
  dockerfile  = file("${path.module}/agent/Dockerfile")
  context_dir = "${path.module}/agent"
}

resource "sbx_sandbox" "agent" {
  template_id = sbx_template.agent.id
}

# A checkpoint of the agent's box, taken on demand:
#   terraform apply -invoke=action.sbx_sandbox_snapshot.checkpoint
action "sbx_sandbox_snapshot" "checkpoint" {
  config {
    sandbox_id = sbx_sandbox.agent.id
    labels = {
      purpose = "checkpoint"
    }
  }
}

# ...and before every release: when var.release changes, the box is
# snapshotted first, then the release goes out.
variable "release" {
  type    = string
  default = "v1"
}

resource "terraform_data" "release" {
  input = var.release

  lifecycle {
    action_trigger {
      events  = [before_update]
      actions = [action.sbx_sandbox_snapshot.checkpoint]
    }
  }
}


# The snapshots the action takes are in no state: the sbx_snapshot data
# source finds the newest (labels = { purpose = "checkpoint" },
# most_recent = true), and terraform import puts one under an sbx_snapshot.

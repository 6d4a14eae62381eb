resource "sbx_template" "agent" {
  name        = "agent"
  dockerfile  = file("${path.module}/agent/Dockerfile")
  context_dir = "${path.module}/agent"
}

resource "sbx_sandbox" "agent" {
  template_id = sbx_template.agent.id

  # Seed every new box once it is up.
  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.sbx_sandbox_exec.seed]
    }
  }
}

variable "registry_token" {
  type      = string
  sensitive = true # hidden in the plan; masked in the command's output
}

# Also on demand: terraform apply -invoke=action.sbx_sandbox_exec.seed
action "sbx_sandbox_exec" "seed" {
  config {
    sandbox_id = sbx_sandbox.agent.id
    command    = ["/bin/sh", "-c", "make seed"]
    env        = { REGISTRY_TOKEN = var.registry_token }
    timeout    = "10m"
  }
}

# A template that another configuration builds.
data "sbx_template" "agent" {
  name = "agent"
}

resource "sbx_sandbox" "worker" {
  name        = "worker-1"
  template_id = data.sbx_template.agent.id
}

output "agent_build" {
  value = data.sbx_template.agent.build_id
}

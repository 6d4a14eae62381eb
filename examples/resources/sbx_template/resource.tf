# A template built from a Dockerfile and the files it copies. Any change to
# the Dockerfile or to a file under context_dir shows in the plan as a
# changed context_hash and rebuilds the template (in place on Docker: the id
# sbx/agent:latest stays the same, build_id changes).
resource "sbx_template" "agent" {
  name        = "agent"
  dockerfile  = file("${path.module}/agent/Dockerfile")
  context_dir = "${path.module}/agent"

  ready_cmd = "/agent ready"

  labels = {
    team = "platform"
  }

  timeouts {
    create = "45m"
  }
}

# A template that adopts an image already present on the Docker engine.
resource "sbx_template" "base" {
  name  = "base"
  image = "my-agent-base:1.4"
}

# The running boxes of the team "agents", with each box as an import would
# store it (terraform query, Terraform 1.14+).
list "sbx_sandbox" "running" {
  provider         = sbx
  include_resource = true

  config {
    labels = { team = "agents" }
    status = "running"
  }
}

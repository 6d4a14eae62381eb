# The templates whose names match a pattern (terraform query, Terraform 1.14+).
list "sbx_template" "agents" {
  provider = sbx

  config {
    name_regex = "^agent-"
  }
}

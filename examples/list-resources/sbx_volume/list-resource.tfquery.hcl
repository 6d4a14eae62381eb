# The volumes of the team "agents" whose names start with "cache-"
# (terraform query, Terraform 1.14+).
list "sbx_volume" "team_caches" {
  provider = sbx

  config {
    labels      = { team = "agents" }
    name_prefix = "cache-"
  }
}

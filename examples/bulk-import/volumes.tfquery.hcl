# Every volume of the team "agents" that the provider may manage: on Docker,
# a volume carrying the provider's labels (made by another configuration, a
# workspace since deleted, or a script following the same convention).
list "sbx_volume" "team" {
  provider = sbx

  config {
    labels = { team = "agents" }
  }
}

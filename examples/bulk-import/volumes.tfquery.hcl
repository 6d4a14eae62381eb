# Every volume of the team that no create of this provider made: volumes
# made by hand (docker volume create), by a script or another tool. Drop
# made_by_provider to list the provider's too (made by another state, or a
# workspace since deleted); owner = "..." lists one team's of those.
list "sbx_volume" "team" {
  provider = sbx

  config {
    labels           = { team = var.team }
    made_by_provider = false
  }
}

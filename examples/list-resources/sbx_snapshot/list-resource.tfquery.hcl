# The newest nightly snapshot of a volume (terraform query, Terraform 1.14+).
list "sbx_snapshot" "latest_nightly" {
  provider = sbx

  config {
    volume_id   = "agent-workspace"
    name_regex  = "^nightly-"
    most_recent = true
  }
}

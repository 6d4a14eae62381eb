# Every box of one team, newest first, with its retention deadline.
data "sbx_sandboxes" "team" {
  labels = { team = "agents" }
}

output "team_deadlines" {
  value = {
    for b in data.sbx_sandboxes.team.sandboxes : b.name => {
      status           = b.status
      expires_at       = b.expires_at
      retention_status = b.retention_status
      retention_rule   = b.retention_rule
    }
  }
}

# Every plan and apply warns while a box is past its retention deadline.
check "no_expired_boxes" {
  data "sbx_sandboxes" "expired" {
    retention_status = "expired"
  }

  assert {
    condition     = length(data.sbx_sandboxes.expired.sandboxes) == 0
    error_message = "Sandboxes past their retention deadline: ${join(", ", data.sbx_sandboxes.expired.ids)}"
  }
}

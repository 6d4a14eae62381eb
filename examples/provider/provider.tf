# No platform block: the local Docker engine (DOCKER_HOST, else the local socket).
provider "sbx" {}

# Retention: plans warn 2 days before a sandbox or snapshot reaches its
# deadline, and two rows of the built-in policy table are overridden: track
# paused boxes for 30 days, and expire Docker snapshots after 14 days.
provider "sbx" {
  alias = "tracked"

  retention {
    warn_before         = "48h"
    paused_sandbox      = "720h"
    filesystem_snapshot = "14d"
  }
}

# A remote Docker engine, e.g. a shared build host.
provider "sbx" {
  alias = "buildhost"
  docker {
    host = "ssh://builder@build-host.internal"
  }
}

# Every object this configuration creates is marked as owned by "ci-agents",
# so `terraform-provider-sbx orphans --owner ci-agents` finds what a killed
# apply left behind that no state holds.
provider "sbx" {
  alias = "ci"
  owner = "ci-agents"
}

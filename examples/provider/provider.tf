# No platform block: the local Docker engine (DOCKER_HOST, else the local socket).
provider "sbx" {}

# A remote Docker engine, e.g. a shared build host.
provider "sbx" {
  alias = "buildhost"
  docker {
    host = "ssh://builder@build-host.internal"
  }
}

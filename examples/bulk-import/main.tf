# Bring a team's existing volumes under Terraform in bulk (the bulk import
# guide). On the local Docker engine:
#
#   ./make-volumes.sh                                  # three volumes made by hand (skip it for your own)
#   terraform init
#   terraform query                                    # lists what volumes.tfquery.hcl finds
#   terraform query -generate-config-out=imported.tf   # writes a resource and an import block for each
#   terraform apply                                    # imports them; nothing is created or changed
#   terraform plan                                     # No changes.
#
# terraform query needs Terraform 1.14 or later; the generated import blocks
# name each volume by its identity (Terraform 1.12 or later).

terraform {
  required_version = ">= 1.14.0"
  required_providers {
    sbx = {
      source = "sbxhq/sbx"
    }
  }
}

# No platform block: the local Docker engine (DOCKER_HOST or the local socket).
provider "sbx" {}

# The team whose volumes the query finds: the label team=<this>.
variable "team" {
  type    = string
  default = "agents"
}

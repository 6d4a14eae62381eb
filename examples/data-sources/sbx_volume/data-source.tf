# A volume made outside Terraform, e.g. with `docker volume create datasets`.
data "sbx_volume" "datasets" {
  name = "datasets"
}

# Bring it under Terraform: look it up, then import it by its id.
import {
  to = sbx_volume.datasets
  id = data.sbx_volume.datasets.id
}

resource "sbx_volume" "datasets" {
  name = "datasets"
}

output "datasets_managed_before_import" {
  value = data.sbx_volume.datasets.managed
}

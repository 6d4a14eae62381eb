# make bench: N sandboxes, each with its own volume, from one template.
terraform {
  required_providers {
    sbx = {
      source = "sbxhq/sbx"
    }
  }
}

variable "boxes" {
  type    = number
  default = 30
}

variable "context_dir" {
  type = string
}

variable "run_id" {
  type = string
}

provider "sbx" {}

resource "sbx_template" "bench" {
  name        = "bench-${var.run_id}"
  dockerfile  = "FROM scratch\nCOPY agent /agent\nCMD [\"/agent\"]\n"
  context_dir = var.context_dir
}

resource "sbx_volume" "box" {
  count = var.boxes
  name  = "bench-${var.run_id}-${count.index}"
}

resource "sbx_sandbox" "box" {
  count       = var.boxes
  name        = "bench-${var.run_id}-${count.index}"
  template_id = sbx_template.bench.id
  env = {
    AGENT_LOG = "/data/agent.log"
  }
  volume_mount {
    volume_id = sbx_volume.box[count.index].id
    path      = "/data"
  }
}

#!/bin/sh
# Makes three Docker volumes of the team "agents" outside Terraform, labelled
# as the provider labels the volumes it makes, for the bulk import example.
# Remove them with `terraform destroy` once imported, or with
# `docker volume rm agents-cache-1 agents-cache-2 agents-cache-3`.
set -eu
for i in 1 2 3; do
  docker volume create \
    --label sbx.terraform.managed=true \
    --label sbx.terraform.kind=volume \
    --label sbx.terraform.name="agents-cache-$i" \
    --label sbx.terraform.owner= \
    --label sbx.terraform.create-token="made-by-script-$i" \
    --label team=agents \
    "agents-cache-$i"
done

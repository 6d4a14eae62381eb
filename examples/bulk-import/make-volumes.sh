#!/bin/sh
# Makes three Docker volumes of a team (default "agents") by hand, as a team
# does before Terraform: `docker volume create` with a team label, nothing
# of the provider's. Remove them with `terraform destroy` once imported, or
# with `docker volume rm agents-cache-1 agents-cache-2 agents-cache-3`.
#
#   ./make-volumes.sh [team]
set -eu
team=${1:-agents}
for i in 1 2 3; do
  docker volume create --label team="$team" "$team-cache-$i"
done

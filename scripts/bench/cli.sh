#!/usr/bin/env bash
# The make bench baseline: the work the provider does for scripts/bench/main.tf,
# done with the docker command line, every box in parallel (& and wait), and
# nothing of the provider or Terraform in the way.
#
#   cli.sh apply   PREFIX BOXES CONTEXT_DIR
#   cli.sh destroy PREFIX BOXES
#   cli.sh clean   PREFIX         removes whatever a failed run left (no error when nothing)
#
# apply is what the provider's creates do (internal/platform/docker):
#   - the template: a classic-builder build (DOCKER_BUILDKIT=0) without the
#     layer cache, of the same Dockerfile with the provider's labels as one
#     LABEL instruction appended, from the same context (the agent binary);
#     meanwhile, as Terraform does, the volumes, each `docker volume create`
#     with the provider's labels;
#   - then each box: `docker run -d` with the same name scheme, labels, env,
#     volume mount and restart policy (no).
# destroy is what its deletes do: each box `docker rm -f` (the provider
# removes a box by force: the engine kills it, no stop grace period) and then
# its volume `docker volume rm`, every box in parallel; then, once no box uses
# it, `docker rmi` of the template image.
#
# Not copied: the provider's reads before each create (is the name taken, is
# the volume there), its wait of startSettle after each start (a box whose
# command exits at once fails the create instead of being reported running),
# and Terraform's plan, refresh and state writes. Those are the overhead the
# ratio shows.
set -euo pipefail
op=$1 prefix=$2

image="sbx/$prefix:latest"
label_args() { # kind name
  printf '%s\n' --label sbx.terraform.managed=true --label "sbx.terraform.kind=$1" \
    --label "sbx.terraform.name=$2" --label sbx.terraform.owner= \
    --label "sbx.terraform.create-token=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')" \
    --label sbx.terraform.bench="$prefix"
}

apply() {
  local boxes=$1 context=$2 i pids=()
  local ctx
  ctx=$(mktemp -d "/tmp/$prefix-ctx-XXXXXX")
  cp -a "$context/." "$ctx/"
  # The Dockerfile of main.tf, with the labels the provider moves into one
  # LABEL instruction (withLabelInstruction in template_build.go).
  cat >"$ctx/Dockerfile" <<DOCKERFILE
FROM scratch
COPY agent /agent
CMD ["/agent"]
LABEL "sbx.terraform.create-token"="$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')" "sbx.terraform.cpu_count"="" "sbx.terraform.from_template"="" "sbx.terraform.kind"="template" "sbx.terraform.managed"="true" "sbx.terraform.memory_mb"="" "sbx.terraform.name"="$prefix" "sbx.terraform.owner"="" "sbx.terraform.ready_cmd"="" "sbx.terraform.source_image"="" "sbx.terraform.start_cmd"="" "sbx.terraform.user_label_keys"="[]" "sbx.terraform.bench"="$prefix"
DOCKERFILE
  DOCKER_BUILDKIT=0 docker build -q --no-cache --rm --force-rm -t "$image" "$ctx" >/dev/null &
  pids+=($!)
  for ((i = 0; i < boxes; i++)); do
    # shellcheck disable=SC2046 # label_args prints one word per line
    docker volume create $(label_args volume "$prefix-$i") "$prefix-$i" >/dev/null &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  rm -rf "$ctx"
  pids=()
  for ((i = 0; i < boxes; i++)); do
    # shellcheck disable=SC2046
    docker run -d --name "$prefix-$i" $(label_args sandbox "$prefix-$i") \
      --label "sbx.terraform.template_id=$image" --label sbx.terraform.from_snapshot_id= \
      --label 'sbx.terraform.user_label_keys=[]' \
      --restart no -e AGENT_LOG=/data/agent.log \
      --mount "type=volume,src=$prefix-$i,dst=/data" "$image" >/dev/null &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
}

destroy() {
  local boxes=$1 i pids=()
  for ((i = 0; i < boxes; i++)); do
    { docker rm -f "$prefix-$i" >/dev/null && docker volume rm "$prefix-$i" >/dev/null; } &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p"; done
  docker rmi "$image" >/dev/null
}

# clean removes everything carrying this run's label, quietly.
clean() {
  local ids
  ids=$(docker ps -aq --filter "label=sbx.terraform.bench=$prefix")
  [ -z "$ids" ] || docker rm -f $ids >/dev/null 2>&1 || true
  ids=$(docker volume ls -q --filter "label=sbx.terraform.bench=$prefix")
  [ -z "$ids" ] || docker volume rm $ids >/dev/null 2>&1 || true
  docker rmi "$image" >/dev/null 2>&1 || true
}

# left counts what this run left on the engine: containers, volumes, images.
left() {
  echo $(($(docker ps -aq --filter "label=sbx.terraform.bench=$prefix" | wc -l) +
    $(docker volume ls -q --filter "label=sbx.terraform.bench=$prefix" | wc -l) +
    $(docker images -q --filter "label=sbx.terraform.bench=$prefix" | wc -l)))
}

case $op in
apply) apply "$3" "$4" ;;
destroy) destroy "$3" ;;
clean) clean ;;
left) left ;;
*) echo "usage: $0 apply|destroy|clean|left PREFIX ..." >&2; exit 2 ;;
esac

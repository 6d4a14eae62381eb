# A sandbox is imported by its id; on Docker that is the full container id
# (docker inspect --format '{{.Id}}' <name>). env is not read back from the
# platform: after an import it is null in state, so a configured env plans a
# replacement of the box.
terraform import sbx_sandbox.agent 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef

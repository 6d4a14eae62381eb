# A sandbox is imported by its id; on Docker that is the full container id
# (docker inspect --format '{{.Id}}' <name>). env is read back on import (on
# Docker: the container's variables that differ from its image's), so a
# configured env that matches plans no change. The lifecycle settings
# (timeout, on_timeout, ...) are read back where the platform reports them;
# Docker does not, so configuring them after an import plans an in-place update.
terraform import sbx_sandbox.agent 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef

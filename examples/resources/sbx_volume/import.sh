# A volume is imported by its id; on Docker that is the volume's name, so a
# volume made with `docker volume create agent-workspace` imports as:
terraform import sbx_volume.workspace agent-workspace

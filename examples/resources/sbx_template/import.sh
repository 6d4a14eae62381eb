# A template is imported by its id; on Docker that is sbx/<name>:latest.
# The platform keeps the built image, not the Dockerfile: the first apply
# after importing a built template rebuilds it in place (same id).
terraform import sbx_template.agent sbx/agent:latest

# A template is imported by its id; on Docker that is sbx/<name>:latest.
# The platform keeps the built image, not the Dockerfile. Docker records the
# context_hash of the build: when the configured Dockerfile and context hash
# to it, the first apply after the import rebuilds nothing; otherwise it
# rebuilds the template in place (same id).
terraform import sbx_template.agent sbx/agent:latest

# A snapshot is imported by its id; on Docker that is the image id.
terraform import sbx_snapshot.agent sha256:3f1c0a6e9d2b4c5a7e8f90123456789abcdef0123456789abcdef0123456789a

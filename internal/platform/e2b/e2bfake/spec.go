package e2bfake

import "github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"

// SpecFile is the name of the official E2B OpenAPI document inside the specs directory.
const SpecFile = "e2b-openapi.yml"

// specSHA256 is the checksum of the official e2b-dev/infra spec/openapi.yml
// the fake validates against (recorded in shared/specs/README.md).
const specSHA256 = "02786df8a1b125d2c8247a5ba21f74e528ec72122a3a2b5b79f6073036b6338b"

// spec is parsed once per test binary: the document is 4k lines and every
// test starts its own fake, while the parsed document is only ever read.
var spec = &fakeapi.Spec{Platform: "E2B", File: SpecFile, SHA256: specSHA256, Testdata: fakeapi.TestdataDir()}

// SpecPath is where the fake reads the spec: $SBX_SPECS_DIR/e2b-openapi.yml when
// that is set, else the project's shared copy <repo>/../shared/specs/e2b-openapi.yml
// (found from the source so tests work from any working directory).
// A clone checked out without ../shared falls back to testdata/e2b-openapi.yml,
// a byte-identical copy whose checksum TestSpecCopyIsTheOfficialFile pins to
// the one recorded for the official file, so it can never drift from it.
func SpecPath() string { return spec.Path() }

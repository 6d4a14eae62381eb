package daytonafake

import (
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// SpecFile is the name of Daytona's OpenAPI document (v0.190.0) inside the
// specs directory.
const SpecFile = "daytona-openapi.yaml"

// specSHA256 is the checksum of the official document the fake validates
// against (recorded in shared/specs/README.md); TestSpecCopyIsTheOfficialFile
// pins both the copy in testdata and the file in use to it.
const specSHA256 = "7dce26780cd898e7f55d1956d90334df5f8c318f4b5fdda5ad56d008d8d43613"

// spec is parsed once per test binary: the document is 15k lines and every
// test starts its own fake. It needs no patching: kin-openapi v0.153 loads
// and validates v0.190.0 as published once example validation is off (its
// examples do not match its own schemas, e.g. string examples on number
// fields), which is a property of the examples, not of the schemas the fake
// validates against.
var spec = &fakeapi.Spec{
	Platform:   "Daytona",
	File:       SpecFile,
	SHA256:     specSHA256,
	Testdata:   fakeapi.TestdataDir(),
	Validation: []openapi3.ValidationOption{openapi3.DisableExamplesValidation()},
}

// SpecPath is where the fake reads the spec: $SBX_SPECS_DIR/daytona-openapi.yaml
// when that is set, else the project's shared copy
// <repo>/../shared/specs/daytona-openapi.yaml (found from the source so
// tests work from any working directory), else testdata/daytona-openapi.yaml,
// a byte-identical copy for clones checked out without ../shared.
func SpecPath() string { return spec.Path() }

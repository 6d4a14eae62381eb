package flyfake

import (
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// SpecFile is the name of the Fly Machines OpenAPI document inside the specs
// directory.
const SpecFile = "fly-openapi.yaml"

// specSHA256 is the checksum of the Dec-2023 derived copy of Fly's official
// Machines API spec the fake validates against (shared/specs/fly-openapi.yaml).
const specSHA256 = "d29d313ba07c44feb58ab3db36b4e1ccaaae21b65a07fc692db6c1bd9564874d"

// spec is parsed once per test binary and shared by every fake it starts.
//
// The document's examples do not match their own schemas (config: "{}" where
// an object is expected), so kin-openapi's check of the document skips
// examples; nothing else in the file needs fixing to load.
var spec = &fakeapi.Spec{Platform: "Fly", File: SpecFile, SHA256: specSHA256, Testdata: fakeapi.TestdataDir(),
	Validation: []openapi3.ValidationOption{openapi3.DisableExamplesValidation()}}

// SpecPath is where the fake reads the spec: $SBX_SPECS_DIR/fly-openapi.yaml
// when that is set, else the project's shared copy
// <repo>/../shared/specs/fly-openapi.yaml, else testdata/fly-openapi.yaml, a
// byte-identical copy whose checksum TestSpecCopyIsTheOfficialFile pins.
func SpecPath() string { return spec.Path() }

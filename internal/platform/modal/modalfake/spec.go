package modalfake

import "github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"

// The official protos the fake is pinned to (shared/specs), with the
// checksums recorded in shared/specs/README.md. Only their location and
// checksum are shared with the REST fakes' machinery; the proto files are
// read by the tests (spec_test.go).
var (
	apiSpec = &fakeapi.Spec{Platform: "Modal", File: "modal-api.proto",
		SHA256: "e01d08b5eaff16aa4e71bce6d24ae974f9bfbc4d8302286627e558923f275874", Testdata: fakeapi.TestdataDir()}
	routerSpec = &fakeapi.Spec{Platform: "Modal", File: "modal-task_command_router.proto",
		SHA256: "12063d9dba67b24b09d6d4a0ab7160a658a2b51b3000ffe1c89c1ecbc76dc706", Testdata: fakeapi.TestdataDir()}
)

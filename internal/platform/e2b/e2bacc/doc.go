// Package e2bacc holds the provider's acceptance tests against E2B: the
// terraform CLI drives the provider, served in-process with its registered
// platforms (provider.NewWithOptions, acctest.Factories), against the
// strict E2B fake (e2bfake), which checks every request and response
// against E2B's API spec. They need the terraform CLI and no Docker engine
// (make test-e2b runs them). They reach the provider only through its
// exported API, so the provider's own tests need not know E2B.
//
// This file holds no code: the tests are in the package's _test files.
package e2bacc

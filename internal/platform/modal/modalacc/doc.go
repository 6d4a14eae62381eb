// Package modalacc holds the provider's acceptance tests against Modal: the
// terraform CLI drives the provider, served in-process with its platforms
// (provider.NewWithOptions, acctest.Factories), against the in-process gRPC
// fake of Modal's API (modalfake), reached through Modal's official Go SDK
// exactly as it reaches Modal. The SDK takes its server only from
// MODAL_SERVER_URL, so one fake serves the whole test binary (TestMain) and
// every test works in a workspace of its own (its own token), whose cleanup
// fails the test on any RPC the fake does not implement or any request
// that breaks Modal's protocol. They need the terraform CLI and no network
// beyond loopback, and reach the provider only through its exported API.
//
// This file holds no code: the tests are in the package's _test files.
package modalacc

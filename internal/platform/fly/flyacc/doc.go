// Package flyacc holds the provider's acceptance tests against Fly.io: the
// terraform CLI drives the provider, served in-process with its platforms
// (provider.NewWithOptions, acctest.Factories), against the strict Fly
// fake (flyfake), which checks every request and response against Fly's
// API spec (and fly-go's shapes where the old spec lacks them). They need
// the terraform CLI and no Docker engine, and reach the provider only
// through its exported API.
//
// This file holds no code: the tests are in the package's _test files.
package flyacc

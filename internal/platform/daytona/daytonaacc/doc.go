// Package daytonaacc holds the provider's acceptance tests against Daytona:
// the terraform CLI drives the provider, served in-process with its
// platforms (provider.NewWithOptions, acctest.Factories), against the
// strict Daytona fake (daytonafake), which checks every request and
// response against Daytona's API spec and moves time on a clock the tests
// share with the provider. They need the terraform CLI and no Docker
// engine. They reach the provider only through its exported API, so the
// provider's own tests need not know Daytona.
//
// This file holds no code: the tests are in the package's _test files.
package daytonaacc

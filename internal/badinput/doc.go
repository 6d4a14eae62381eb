// Package badinput is a table of bad inputs run through the terraform CLI
// against every platform (Docker, and the E2B, Daytona, Fly.io and Modal
// fakes): names, sizes, whole numbers, durations, states, mounts, ids of
// other objects, Dockerfiles and build contexts, reserved labels, snapshot
// sources, data-source filters, provider blocks, retention overrides,
// import ids, and the drift command's inputs. Each must be refused before anything is made (at plan
// time, or at import for import ids) with an error naming the attribute
// and what is allowed, and nothing may panic. Where only the platform can
// tell an input is bad (a name already taken), the apply must fail saying
// what to do, leaving nothing half-made.
//
// This file holds no code: the tests are in the package's _test files.
package badinput

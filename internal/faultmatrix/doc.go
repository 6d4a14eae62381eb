// Package faultmatrix holds the fault matrix: every resource of every
// platform fake (E2B, Daytona, Fly, Modal), each of create, read, update
// and delete, under each fault a platform answers with (429 with the
// platform's retry header, 500, 503, a connection dropped before or after
// the server acted, latency beyond the resource's timeout), one row per
// cell; and a run of many objects applied concurrently while a fake injects
// seeded random faults a retry absorbs. Every row checks that the apply
// converges (or fails saying it is safe to apply again, and the next apply
// converges), that the fake holds exactly the objects the state holds (no
// orphan, no duplicate) and that the next plan is empty.
//
// The package has tests only; this file gives it a name outside them.
package faultmatrix

// Package modal is Modal as a platform of the provider, through Modal's
// official Go SDK (github.com/modal-labs/modal-client/go): templates are
// Images, sandboxes are Sandboxes of one App, volumes are Volumes (v2) by
// name, and snapshots are filesystem snapshots (Images with a ttl) or
// memory snapshots.
package modal

import (
	// The SDK is the only way the platform talks to Modal.
	_ "github.com/modal-labs/modal-client/go"
)

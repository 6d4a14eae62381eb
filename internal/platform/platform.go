// Package platform defines what the provider needs from a sandbox platform:
// templates, volumes, sandboxes and snapshots, with normalized types, a
// capability matrix and typed errors. Resources speak only to these
// interfaces; each platform package (docker, e2b, ...) implements them and
// never imports the Terraform framework.
package platform

import "context"

// Platform is one configured sandbox platform.
type Platform interface {
	// Name is the platform's short name as users write it: "docker", "e2b", ...
	Name() string
	// Capabilities says what this platform can do; resources check it at plan time.
	Capabilities() Capabilities

	Templates() TemplateService
	Volumes() VolumeService
	Sandboxes() SandboxService
	Snapshots() SnapshotService

	// Extensions returns the optional hooks the platform offers.
	Extensions() Extensions

	// Close releases what the platform holds (an engine connection, idle
	// HTTP connections); the platform is not used after it.
	Close() error
}

// TemplateService builds and manages templates, the images sandboxes start from.
type TemplateService interface {
	// Create builds a template (from spec.Image, an image it does not own).
	// A template of the name this create did not make (spec.Marks) is a
	// NotOwnedError, never reused: see Marks.MadeBy. If the build fails
	// after the template exists, the returned *Template is non-nil so the
	// caller can save it in state (tainted) rather than orphan it.
	Create(ctx context.Context, spec TemplateSpec) (*Template, error)
	// Rebuild builds a new version of an existing template, keeping its id.
	// Only called when Capabilities().TemplateRebuildInPlace is true.
	Rebuild(ctx context.Context, id string, spec TemplateSpec) (*Template, error)
	Get(ctx context.Context, id string) (*Template, error)
	// List returns templates matching the filter; an empty filter returns all
	// templates this provider manages.
	List(ctx context.Context, filter TemplateFilter) ([]Template, error)
	// Delete removes a template; a template already gone is not an error.
	// An image the provider did not build is never removed: Delete returns a
	// NotOwnedError for it, and the resource keeps it with a warning.
	Delete(ctx context.Context, id string) error
}

// VolumeService manages persistent volumes.
type VolumeService interface {
	Create(ctx context.Context, spec VolumeSpec) (*Volume, error)
	Get(ctx context.Context, id string) (*Volume, error)
	List(ctx context.Context, filter VolumeFilter) ([]Volume, error)
	// Update changes, keeping the volume's id and data, the attributes set
	// in change. It is called only with attributes the platform's attribute
	// table marks InPlace, and must make every such change; an attribute
	// it cannot change is ErrUnsupported.
	Update(ctx context.Context, id string, change VolumeUpdate) (*Volume, error)
	// Delete removes a volume; a volume already gone is not an error.
	Delete(ctx context.Context, id string) error
}

// SandboxService manages sandboxes (boxes).
type SandboxService interface {
	// Create makes a sandbox and brings it to spec.State. If the platform
	// returns an error after the sandbox exists, the returned *Sandbox is
	// non-nil so the caller can save it in state.
	Create(ctx context.Context, spec SandboxSpec) (*Sandbox, error)
	Get(ctx context.Context, id string) (*Sandbox, error)
	List(ctx context.Context, filter SandboxFilter) ([]Sandbox, error)
	// SetState moves a sandbox to running, paused or stopped in place.
	SetState(ctx context.Context, id string, state SandboxState) (*Sandbox, error)
	// Update changes, on the live box, the attributes set in change. It is
	// called only with attributes the platform's attribute table marks
	// InPlace (state aside: SetState), and must make every such change; an
	// attribute it cannot change is ErrUnsupported.
	Update(ctx context.Context, id string, change SandboxUpdate) (*Sandbox, error)
	// Delete removes a sandbox at once, without waiting out a stop grace
	// period; a sandbox already gone is not an error.
	Delete(ctx context.Context, id string) error
}

// SnapshotService manages snapshots of sandboxes and of volumes.
type SnapshotService interface {
	Create(ctx context.Context, spec SnapshotSpec) (*Snapshot, error)
	Get(ctx context.Context, id string) (*Snapshot, error)
	// List returns every snapshot matching the filter, newest first, reading
	// every page the platform returns.
	List(ctx context.Context, filter SnapshotFilter) ([]Snapshot, error)
	// Delete removes a snapshot; a snapshot already gone is not an error.
	// Only called when Capabilities().SnapshotDelete is true.
	Delete(ctx context.Context, id string) error
}

// IDPlanner is offered (Extensions.IDs) by platforms whose ids follow from names (Docker:
// a template is sbx/<name>:latest, a volume is its name). The provider plans
// such ids as known, so recreating an object under the same name changes no
// id downstream and replaces nothing that refers to it.
type IDPlanner interface {
	// PlannedID returns the id the object of kind ("template", "volume")
	// called name will have, or false when the platform assigns it.
	PlannedID(kind, name string) (string, bool)
}

// Inventory is offered (Extensions.Inventory) by platforms that can list every object the
// provider made there, whatever state holds it: the orphans command finds
// with it what no state holds. A platform where some kinds carry no labels
// says so in ManagedObjects.Unchecked rather than guessing.
type Inventory interface {
	// ListManaged returns every object of every kind the platform can
	// check that carries LabelManaged=true, except the provider's internal
	// helpers, each with its marks (owner, create token).
	ListManaged(ctx context.Context) (*ManagedObjects, error)
	// RemoveManaged removes an object ListManaged returned, if it still is
	// that object: the same kind, carrying the same create token. An object
	// already gone is a NotFoundError; one that is now another object (an
	// apply rebuilt the template under its tag) or that something uses is a
	// ConflictError, and is left as it is. Nothing is forced.
	RemoveManaged(ctx context.Context, obj ManagedObject) error
}

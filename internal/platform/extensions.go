package platform

import "context"

// Extensions are what a platform offers beyond its four services. Each is
// optional, a nil field meaning "not offered", and each is declared here,
// returned by Platform.Extensions, so the provider never discovers a hook
// by type assertion.
type Extensions struct {
	// IDs plans ids that follow from names (IDPlanner).
	IDs IDPlanner
	// Inventory lists and removes every object the provider made there,
	// for the orphans command.
	Inventory Inventory
	// TemplateSpecs tells at plan time that a template cannot be built.
	TemplateSpecs TemplateSpecValidator
	// SandboxRules judges a planned box against the platform's rules that
	// no single attribute carries.
	SandboxRules SandboxRules
	// SnapshotRules judges a planned snapshot against the platform's rules
	// that depend on its source (the box's class, its state).
	SnapshotRules SnapshotRules
	// VolumeRules judges a planned volume against the platform's rules
	// that no attribute row carries (a name pattern, a restore's size).
	VolumeRules VolumeRules
	// TemplateActivation activates a template the platform deactivated
	// (Status TemplateInactive) in place.
	TemplateActivation TemplateActivator
	// Exec runs commands in live sandboxes (exec.go), where
	// Capabilities.Exec.Runs.
	Exec CommandRunner
	// TemplateBuilds removes a build of a template that no longer holds
	// the template's id (Template.ForeignBuild).
	TemplateBuilds TemplateBuildRemover
}

// TemplateBuildRemover is offered by platforms where a template's id can
// be moved off the provider's build by hand (Docker: a retag), which
// leaves that build behind under no id. The provider remembers the build
// it made and removes it once the template is rebuilt or destroyed.
type TemplateBuildRemover interface {
	// RemoveBuild removes the build buildID of the template id, only if
	// the provider made it for that template; one already gone is not an
	// error. A build a box still runs from is refused by the platform.
	RemoveBuild(ctx context.Context, id, buildID string) error
}

// TemplateActivator is offered by platforms that deactivate templates
// nobody used for a while and activate them again on request (Daytona).
// The provider plans an in-place update of a template that reads as
// TemplateInactive, and the update calls Activate.
type TemplateActivator interface {
	// Activate makes the template usable again and returns it once it is;
	// a template that is already active is returned as it is.
	Activate(ctx context.Context, id string) (*Template, error)
}

// SnapshotRules judges a planned snapshot against rules that depend on
// what it is taken of, such as Daytona's: only a Windows-class box can be
// snapshotted with its memory. It is called from the snapshot's plan when
// the source's id is known and may read the platform; every problem is a
// plan-time error on the attribute it names.
type SnapshotRules interface {
	CheckSnapshot(ctx context.Context, spec SnapshotSpec) []Problem
}

// VolumeRules judges a planned volume against rules no attribute row can
// express, such as Fly's (a volume name of at most 30 letters, digits and
// underscores; a restore at least as large as the volume the snapshot was
// taken of) or E2B's (names of letters, digits, '_' and '-', where the
// schema also allows '.'). It is called from the volume's plan with the known values
// (an unknown one is zero) and may read the platform; every problem is a
// plan-time error on the attribute it names.
type VolumeRules interface {
	CheckVolume(ctx context.Context, spec VolumeSpec) []Problem
}

// SandboxRules judges a planned box against rules that span attributes or
// objects, such as Fly's: a volume and the machine that mounts it must be
// in one region. (One volume per machine is a row: sandbox.volume_mount
// with Max 1.) It is called from the sandbox's plan and may read the
// platform (the mounted volumes); every problem is a plan-time error on the
// attribute it names.
type SandboxRules interface {
	CheckSandbox(ctx context.Context, plan SandboxPlan) []Problem
}

// SandboxPlan is a planned box as far as it is known at plan time.
type SandboxPlan struct {
	// Spec holds the known values; an unknown one is zero.
	Spec SandboxSpec
	// MountsKnown: every volume_mount's volume_id is known (else Spec's
	// mounts hold only the known ones, and a rule about them must wait).
	MountsKnown bool
	// Creating: the plan makes a new box (a create or a replacement);
	// false when it changes a live one.
	Creating bool
	// InState reports whether this run has read box id from the state
	// (every box a state holds is refreshed before it is planned, a tainted
	// one included): such a box belongs to a configuration. nil: none was.
	// A lookup, not a list, since every box of a plan is asked about and a
	// list of them all per box would make a plan quadratic in its boxes.
	InState func(id string) bool
}

// Problem is one broken rule: the attribute it concerns, what and why.
type Problem struct {
	// Attribute is the top-level attribute ("volume_mount"); Index the
	// element of a list (-1: none); Field the attribute inside it ("volume_id").
	Attribute string
	Index     int
	Field     string
	Summary   string
	Detail    string
}

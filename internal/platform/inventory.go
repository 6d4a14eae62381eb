package platform

import "time"

// Object kinds as an Inventory reports them: the resource a state holds
// each one as (sbx_template, sbx_volume, sbx_sandbox, sbx_snapshot).
const (
	KindTemplate = "template"
	KindVolume   = "volume"
	KindSandbox  = "sandbox"
	KindSnapshot = "snapshot"
)

// ManagedObject is one object carrying the provider's managed label.
type ManagedObject struct {
	// Kind is one of KindTemplate, KindVolume, KindSandbox, KindSnapshot.
	Kind string
	// ID is the id a state holds the object under (what the resource's id
	// attribute records).
	ID string
	// Aliases are other references to the same object that a state may
	// hold instead of ID: an image's id for a template's tag, a
	// container's name and short id. A state holding any of them holds
	// the object.
	Aliases []string
	Name    string
	// Owner is the LabelOwner mark, "" when the object has none.
	Owner string
	// CreateToken is the LabelCreateToken mark, "" when the object has none
	// (made before the provider set it).
	CreateToken string
	// CreatedAt is zero when the platform does not say.
	CreatedAt time.Time
	// Detail says more about the object for people: its status, what kind
	// of snapshot, "older build of ...".
	Detail string
	// UsedBy are the ids of what keeps this object: sandboxes made from or
	// mounting it, images built on it. Removing it first needs them gone.
	UsedBy []string
}

// UncheckedKind is a kind of object a platform's inventory cannot check,
// and why (E2B templates, volumes and snapshots carry no labels).
type UncheckedKind struct {
	Kind   string
	Reason string
}

// ManagedObjects is what an Inventory lists.
type ManagedObjects struct {
	Objects   []ManagedObject
	Unchecked []UncheckedKind
}

// Carries reports whether an object's labels (as read now) are those of o
// as listed: managed, with the same owner and create token. An id that now
// names an object another create made (a template tag moved by a rebuild)
// does not carry them.
func (o ManagedObject) Carries(labels map[string]string) bool {
	return labels[LabelManaged] == "true" && labels[LabelCreateToken] == o.CreateToken && labels[LabelOwner] == o.Owner
}

// ChangedError is the error of a removal whose id no longer names the
// object listed.
func (o ManagedObject) ChangedError() error {
	return &ConflictError{Kind: o.Kind, ID: o.ID,
		Reason: "no longer the object listed (another create made what is there now, or it was relabelled); left as it is"}
}

package platform

// Capabilities is what one platform can do. Attributes, its attribute
// table, says for every configurable attribute whether it is accepted,
// changed in place or by replacement, reported back, required, and its
// limits: the provider derives every plan-time decision about an attribute
// from it (internal/provider/attribute_plan.go), and the conformance suite
// proves each row through the terraform CLI. The flags below are what no
// single attribute carries: what the platform reports, and how it behaves.
type Capabilities struct {
	Attributes Attributes

	// PauseKindUnreported: the platform reports a paused box the same way
	// whether its memory was kept (paused) or dropped (stopped), so a read
	// cannot tell the two apart and the resource keeps what it recorded.
	PauseKindUnreported bool
	// EnforcesDeadlines is false where deadlines are tracked by the
	// provider only (Docker): nothing stops the box at its deadline.
	EnforcesDeadlines bool

	// TemplatesListed: the platform holds templates and finds one by name,
	// so the sbx_template data source can look one up. False where a
	// template is only a record in Terraform state (Fly: an image
	// reference), with nothing on the platform to list.
	TemplatesListed bool

	// VolumeLabelsNeedIdle: relabelling a volume in place needs it mounted
	// by no sandbox, running or stopped (Docker counts a stopped container
	// that mounts a volume as a user of it: ContainerList with All).
	VolumeLabelsNeedIdle bool
	// VolumeMountsExclusive: a volume is mounted by one box at a time
	// (Fly: one machine per volume), so two sandboxes of a configuration
	// mounting one volume are a plan-time error.
	VolumeMountsExclusive bool
	// VolumeCreatedAt: the platform reports when a volume was made.
	VolumeCreatedAt bool

	// SnapshotDelete: snapshots can be deleted (else: they expire).
	SnapshotDelete bool
	// SnapshotUndeletableKinds: kinds of snapshot the platform cannot
	// delete even though it deletes others (Modal deletes filesystem
	// snapshots, not memory ones); destroy forgets those with a warning
	// giving when they expire, as where SnapshotDelete is false.
	SnapshotUndeletableKinds []SnapshotKind
	// SnapshotNames: the platform keeps a snapshot's name, so the
	// sbx_snapshot(s) data sources can select snapshots by name or
	// name_regex. False where snapshots have no name (Fly volume
	// snapshots): select them by source (volume_id, sandbox_id) instead.
	SnapshotNames bool
	// SnapshotNamesUnique: a snapshot name identifies one snapshot, so two
	// resources may not share it.
	SnapshotNamesUnique bool
	// What the platform reports back about a snapshot it holds.
	SnapshotCreatedAt      bool // when it was made: created_at, and ordering for most_recent
	SnapshotSize           bool // its size (size_bytes)
	SnapshotSourceReported bool // the sandbox or volume it was taken from, on a lookup
	// SnapshotListsBySource: List selects the snapshots of one sandbox or
	// volume (SnapshotFilter.SandboxID, VolumeID). Where it cannot (Daytona
	// records no source), the data sources' source filters are an error and
	// an imported snapshot's configured source is taken as written.
	SnapshotListsBySource bool
	// SnapshotsByMarksOnly: an object is a snapshot to the provider only
	// by the provider's own marks on it (Docker: an image it labelled a
	// snapshot; Modal: the record in its source box's tags), so one taken
	// outside the provider (`docker commit`, Modal's SDK) is no snapshot to
	// it: its import is an error saying what it is. False where the
	// platform holds snapshots as objects of their own, which import
	// whoever took them.
	SnapshotsByMarksOnly bool

	// Exec: what the sbx_sandbox_exec action can do here (exec.go).
	Exec ExecSupport
}

// Attribute returns the row of one attribute (Refused when absent).
func (c Capabilities) Attribute(key string) Attribute { return c.Attributes.Get(key) }

// Accepts reports whether the platform accepts the attribute at all.
func (c Capabilities) Accepts(key string) bool { return c.Attributes.Get(key).Support != Refused }

// AcceptsValue reports whether the platform accepts the attribute with
// this value (as Terraform writes it: "paused", "true").
func (c Capabilities) AcceptsValue(key, value string) bool {
	row := c.Attributes.Get(key)
	return row.Support != Refused && row.Accepts(value)
}

// InPlace reports whether a change of the attribute keeps the object.
func (c Capabilities) InPlace(key string) bool { return c.Attributes.Get(key).Support == InPlace }

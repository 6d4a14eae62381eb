package daytona

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// sandboxRules are Daytona's plan-time rules that no single row carries:
// its intervals are whole minutes, its allow list takes CIDR blocks, only
// VM-class boxes pause.
type sandboxRules struct{ p *Platform }

var _ platform.SandboxRules = sandboxRules{}

// pausable are the sandbox classes Daytona pauses and resumes
// (sandbox.service.ts pause and start).
var pausable = []string{"linux-vm", classWindows}

// CheckSandbox implements platform.SandboxRules. state = "paused" is
// checked against the class of the template's boxes, when the template
// is known and the platform can be read.
func (r sandboxRules) CheckSandbox(ctx context.Context, plan platform.SandboxPlan) []platform.Problem {
	var out []platform.Problem
	if p := r.pausedProblem(ctx, plan.Spec); p != nil {
		out = append(out, *p)
	}
	lc := plan.Spec.Lifecycle
	for _, c := range []struct {
		attr string
		d    time.Duration
	}{
		{"idle_timeout", lc.IdleTimeout},
		{"auto_archive_after", lc.AutoArchiveAfter},
		{"auto_delete_after", lc.AutoDeleteAfter},
	} {
		if !wholeMinutes(c.d) {
			out = append(out, platform.Problem{Attribute: c.attr, Index: -1,
				Summary: c.attr + " is not a whole number of minutes",
				Detail: fmt.Sprintf("Daytona sets its auto-stop, auto-archive and auto-delete intervals in whole minutes; %s is not one: "+
					"round it to a minute (e.g. %s).", c.d, c.d.Round(time.Minute))})
		}
	}
	if n := plan.Spec.Network; n != nil {
		for _, a := range n.AllowOut {
			if err := checkCIDR(a); err != nil {
				out = append(out, platform.Problem{Attribute: "network", Index: -1, Field: "allow_out",
					Summary: "allow_out takes CIDR blocks on daytona", Detail: err.Error() + "."})
			}
		}
	}
	return out
}

// pausedProblem is the problem of state = "paused" on a box whose
// template makes boxes Daytona cannot pause.
func (r sandboxRules) pausedProblem(ctx context.Context, spec platform.SandboxSpec) *platform.Problem {
	tpl := spec.TemplateID
	if spec.FromSnapshotID != "" {
		tpl = spec.FromSnapshotID
	}
	if spec.State != platform.StatePaused || tpl == "" || r.p == nil {
		return nil
	}
	s, err := (&templates{p: r.p}).find(ctx, tpl)
	if err != nil || s == nil || s.SandboxClass == "" || slices.Contains(pausable, s.SandboxClass) {
		return nil // unknown here: the apply's error says so
	}
	return &platform.Problem{Attribute: "state", Index: -1,
		Summary: "state = \"paused\" needs a VM-class sandbox on daytona",
		Detail: fmt.Sprintf("Daytona pauses only linux-vm and windows sandboxes; template %s makes %s sandboxes. "+
			"Set state = \"stopped\" (the disk is kept) or \"running\".", tpl, s.SandboxClass)}
}

// snapshotRules are Daytona's rules for a snapshot of a box: only a
// Windows-class box is snapshotted with its memory (sandbox.service.ts
// createSnapshotFromSandbox).
type snapshotRules struct{ p *Platform }

var _ platform.SnapshotRules = snapshotRules{}

// CheckSnapshot implements platform.SnapshotRules: it reads the box's class.
func (r snapshotRules) CheckSnapshot(ctx context.Context, spec platform.SnapshotSpec) []platform.Problem {
	if !spec.IncludeMemory || spec.SandboxID == "" {
		return nil
	}
	class, err := (&sandboxes{p: r.p}).classOf(ctx, spec.SandboxID)
	if err != nil {
		if platform.IsNotFound(err) {
			return nil // the snapshot's create says so, or the box is replaced in the same apply
		}
		return []platform.Problem{{Attribute: "include_memory", Index: -1,
			Summary: "Cannot read the sandbox to check include_memory",
			Detail:  fmt.Sprintf("Daytona snapshots a sandbox with its memory only when it is a Windows-class sandbox, and reading sandbox %s to tell failed: %v", spec.SandboxID, err)}}
	}
	if class == classWindows {
		return nil
	}
	shown := class
	if shown == "" {
		shown = "unreported"
	}
	return []platform.Problem{{Attribute: "include_memory", Index: -1,
		Summary: "include_memory needs a Windows sandbox on daytona",
		Detail: fmt.Sprintf("Daytona snapshots a sandbox with its memory only when it is of the windows class; sandbox %s is of the %s class. "+
			"Remove include_memory (or set it to false) for a filesystem snapshot.", spec.SandboxID, shown)}}
}

// classWindows is the sandbox class whose boxes are snapshotted with memory.
const classWindows = "windows"

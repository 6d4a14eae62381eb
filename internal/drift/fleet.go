package drift

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/statesource"
)

// DetectSource judges every workspace's state of a backend (only the
// workspaces named in only, when it is not empty) into one report whose
// findings name their workspace. A workspace that cannot be read or is not
// a state fails the whole run, naming the workspace: a fleet report that
// silently skipped one would call its expired boxes fine. A name in only
// that the backend lacks is an error too, so a typo is not a clean report.
func DetectSource(ctx context.Context, src statesource.Source, only []string, byWorkspace bool, now time.Time, warnBefore time.Duration) (Report, error) {
	rep := Report{Now: now, WarnBefore: warnBefore, Format: FormatState, Source: src.Describe()}
	var all []string
	err := src.Each(ctx, func(name string, r io.Reader) error {
		all = append(all, name)
		if len(only) > 0 && !slices.Contains(only, name) {
			return nil
		}
		ws := WorkspaceSummary{Name: name, NoState: r == nil}
		if r != nil {
			if _, err := rep.addWith(r, name, &ws, ParseOptions{Backend: true}); err != nil {
				return err
			}
		}
		rep.Workspaces = append(rep.Workspaces, ws)
		return nil
	})
	if err != nil {
		return Report{}, err
	}
	for _, name := range only {
		if !slices.Contains(all, name) {
			return Report{}, fmt.Errorf("%s: no workspace %q (--workspace); it has %s", src.Describe(), name, strings.Join(all, ", "))
		}
	}
	rep.sort(byWorkspace)
	return rep, nil
}

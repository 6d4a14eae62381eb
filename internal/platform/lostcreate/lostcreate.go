// Package lostcreate looks for the object of a create whose answer was
// lost (the request may have been applied), and words the error when it
// is not found. The remote platforms share it (E2B, Daytona and Fly over
// REST, Modal over gRPC); it is no part of the platform contract.
package lostcreate

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// The lookups for the object of a create whose answer was lost. A REST
// platform's listings may lag a create (E2B's by a few seconds; Daytona
// calls its sandbox list eventually consistent), so one lookup that finds
// nothing proves little: the object is looked for at once and again after
// waits of 1, 2, 4 and 5 s (each twice the last, the last cut to the
// bound), 12 s in all, before the create is given up as unknown.
const (
	FirstWait = time.Second
	Bound     = 12 * time.Second
)

// Find looks for the object a create whose answer was lost may have
// made, with backoff through sleep, until find reports it or
// Bound has been waited out. It returns whether find found it,
// how long it waited, and what stopped it early: a failed lookup, or ctx
// ending during a wait (sleep's error).
func Find(ctx context.Context, sleep func(context.Context, time.Duration) error, find func(context.Context) (bool, error)) (bool, time.Duration, error) {
	var waited time.Duration
	wait := FirstWait
	for {
		found, err := find(ctx)
		if err != nil || found {
			return found, waited, err
		}
		if waited >= Bound {
			return false, waited, nil
		}
		d := min(wait, Bound-waited)
		if err := sleep(ctx, d); err != nil {
			return false, waited, err
		}
		waited += d
		wait *= 2
	}
}

// Error fails a create whose answer was lost when the object it
// may have made was not found: the create is not sent again (that could
// make a second object), and the message says how to find the first. It
// wraps the create's error, so errors.Is(err, rest.ErrMaybeApplied) holds,
// and what stopped the lookups (e.g. context.Canceled).
type Error struct {
	What   string        // the object: "sandbox", `volume "data"`
	Err    error         // the create request's failure
	Waited time.Duration // how long the lookups went on
	Lookup error         // what stopped the lookups early, if anything
	// NotListed says, in the platform's words, that the lookups ran their
	// course without finding the object (shown when Lookup is nil).
	NotListed string
	Find      string // how to find the object, and what to do then
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "creating the %s: the answer was lost, so the %s may have been made (%v). ", e.What, e.What, e.Err)
	if e.Lookup != nil {
		fmt.Fprintf(&b, "Looking for it stopped after %s: %v. ", e.Waited, e.Lookup)
	} else {
		b.WriteString(e.NotListed + " ")
	}
	b.WriteString("The create was not sent again, so that it cannot make a second one. ")
	b.WriteString(e.Find)
	return b.String()
}

func (e *Error) Unwrap() []error {
	if e.Lookup == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.Lookup}
}

// OrphansCommand is the command line that lists what the provider made
// for owner ("" for every owner) and no state holds: the way to find the
// object of a lost create once the platform lists it.
func OrphansCommand(owner string) string {
	if owner != "" {
		return fmt.Sprintf("terraform state pull | terraform-provider-sbx orphans --owner %q -", owner)
	}
	return "terraform state pull | terraform-provider-sbx orphans -"
}

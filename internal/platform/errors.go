package platform

import (
	"errors"
	"fmt"
)

// Sentinel errors; test with errors.Is.
var (
	// ErrNotFound: the object does not exist (or no longer does).
	ErrNotFound = errors.New("not found")
	// ErrUnsupported: the platform cannot do what was asked.
	ErrUnsupported = errors.New("not supported by the platform")
	// ErrConflict: the object exists but is in a state that forbids the operation.
	ErrConflict = errors.New("conflict")
)

// NotFoundError says which object is missing.
type NotFoundError struct {
	Kind string // "sandbox", "volume", "template", "snapshot"
	ID   string
	// Reason says why the object is gone, where the platform says it
	// ("finished: timed out (exit code 124)"); empty when it does not.
	Reason string
}

func (e *NotFoundError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("%s %q not found: %s", e.Kind, e.ID, e.Reason)
	}
	return fmt.Sprintf("%s %q not found", e.Kind, e.ID)
}

// Is makes errors.Is(err, ErrNotFound) true.
func (e *NotFoundError) Is(target error) bool { return target == ErrNotFound }

// UnsupportedError says which capability a platform lacks.
type UnsupportedError struct {
	Platform   string
	Capability string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s does not support %s", e.Platform, e.Capability)
}

// Is makes errors.Is(err, ErrUnsupported) true.
func (e *UnsupportedError) Is(target error) bool { return target == ErrUnsupported }

// ConflictError says why an operation cannot run on an object now.
type ConflictError struct {
	Kind   string
	ID     string
	Reason string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s %q: %s", e.Kind, e.ID, e.Reason)
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// IsNotFound reports whether err means the object does not exist.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// NotOwnedError says an object already exists under the name a create asked
// for, and this create did not make it: another Terraform state manages it,
// someone made it by hand, or it is left from an apply that was killed.
// Adopting it would let two resources share one object, and the destroy of
// either delete the other's data, so the create fails instead.
type NotOwnedError struct {
	Kind string // "sandbox", "volume", "template", "snapshot"
	Name string
	// ID is what `terraform import` takes to bring the object under this
	// resource; empty where the object cannot be imported as this kind.
	ID string
	// Detail says more about the object found, e.g. "made by hand (no sbx labels)".
	Detail string
}

func (e *NotOwnedError) Error() string {
	msg := fmt.Sprintf("a %s named %q already exists and this create did not make it", e.Kind, e.Name)
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	msg += ". The provider takes an object over only by import, never by name: two resources sharing one object " +
		"would delete each other's data."
	if e.ID != "" {
		msg += fmt.Sprintf(" To manage it here, import it: terraform import <this resource's address> %s "+
			"(or an import block with id = %q); otherwise choose another name, or remove the object.", e.ID, e.ID)
	} else {
		msg += " Choose another name, or remove the object."
	}
	return msg
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *NotOwnedError) Is(target error) bool { return target == ErrConflict }

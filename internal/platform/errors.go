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
}

func (e *NotFoundError) Error() string { return fmt.Sprintf("%s %q not found", e.Kind, e.ID) }

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

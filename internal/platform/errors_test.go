package platform

import (
	"errors"
	"fmt"
	"testing"
)

func TestTypedErrorsMatchTheirSentinels(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		sentinel error
		others   []error
		message  string
	}{
		{
			name: "not found", err: &NotFoundError{Kind: "volume", ID: "data"},
			sentinel: ErrNotFound, others: []error{ErrUnsupported, ErrConflict},
			message: `volume "data" not found`,
		},
		{
			name: "unsupported", err: &UnsupportedError{Platform: "docker", Capability: "volume sizes (size_gb)"},
			sentinel: ErrUnsupported, others: []error{ErrNotFound, ErrConflict},
			message: "docker does not support volume sizes (size_gb)",
		},
		{
			name: "conflict", err: &ConflictError{Kind: "volume", ID: "data", Reason: "in use by sandbox abc"},
			sentinel: ErrConflict, others: []error{ErrNotFound, ErrUnsupported},
			message: `volume "data": in use by sandbox abc`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wrapped := fmt.Errorf("while planning: %w", tt.err)
			if !errors.Is(wrapped, tt.sentinel) {
				t.Errorf("errors.Is(%v, %v) = false through a wrap", wrapped, tt.sentinel)
			}
			for _, other := range tt.others {
				if errors.Is(wrapped, other) {
					t.Errorf("errors.Is(%v, %v) = true, want false", wrapped, other)
				}
			}
			if got := tt.err.Error(); got != tt.message {
				t.Errorf("Error() = %q, want %q", got, tt.message)
			}
			if IsNotFound(wrapped) != (tt.sentinel == ErrNotFound) {
				t.Errorf("IsNotFound(%v) = %v", wrapped, IsNotFound(wrapped))
			}
		})
	}
}

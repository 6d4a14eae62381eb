package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// TestAddPlatformErrorTimeout: an update or delete cut off by its timeout
// says applying again is safe; other failures, and creates, do not claim it.
func TestAddPlatformErrorTimeout(t *testing.T) {
	timedOut := fmt.Errorf("attempt 1 of 5: %w", context.DeadlineExceeded)
	tests := []struct {
		action string
		err    error
		want   bool
	}{
		{"delete", timedOut, true},
		{"update", timedOut, true},
		{"create", timedOut, false},
		{"delete", errors.New("conflict: in use"), false},
	}
	for _, tt := range tests {
		var diags diag.Diagnostics
		addPlatformError(&diags, tt.action, "sandbox", "sb-1", tt.err)
		got := strings.Contains(diags.Errors()[0].Detail(), "applying again is safe")
		if got != tt.want {
			t.Errorf("%s, %v: says safe to apply again = %v, want %v (%s)", tt.action, tt.err, got, tt.want, diags.Errors()[0].Detail())
		}
	}
}

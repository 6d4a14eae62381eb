package restplatform

import (
	"errors"
	"fmt"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/rest"
)

func TestNotFound(t *testing.T) {
	other := errors.New("no response")
	tests := []struct {
		name         string
		err          error
		wantNotFound bool
		wantSame     bool // the error is returned as it is
	}{
		{name: "a 404", err: &rest.APIError{StatusCode: 404}, wantNotFound: true},
		{name: "a wrapped 404", err: fmt.Errorf("reading: %w", &rest.APIError{StatusCode: 404}), wantNotFound: true},
		{name: "a 409", err: &rest.APIError{StatusCode: 409}, wantSame: true},
		{name: "a transport error", err: other, wantSame: true},
		{name: "no error", err: nil, wantSame: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NotFound(tt.err, "volume", "v1")
			if platform.IsNotFound(got) != tt.wantNotFound {
				t.Errorf("IsNotFound(%v) = %v, want %v", got, !tt.wantNotFound, tt.wantNotFound)
			}
			var nf *platform.NotFoundError
			if tt.wantNotFound && (!errors.As(got, &nf) || nf.Kind != "volume" || nf.ID != "v1") {
				t.Errorf("got %#v, want a NotFoundError of volume v1", got)
			}
			if tt.wantSame && !errors.Is(got, tt.err) {
				t.Errorf("got %v, want %v as it is", got, tt.err)
			}
		})
	}
}

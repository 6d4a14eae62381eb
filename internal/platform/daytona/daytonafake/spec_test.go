package daytonafake

import (
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// Every route the fake serves is an operation of the spec, written as the
// spec writes it (so Inject and Requests keys match what clients hit).
func TestHandlersAreSpecOperations(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromFile(SpecPath())
	if err != nil {
		t.Fatal(err)
	}
	for route := range handlers {
		method, path, _ := strings.Cut(route, " ")
		item := doc.Paths.Value(path)
		if item == nil || item.GetOperation(method) == nil {
			t.Errorf("%s is not an operation of the spec", route)
		}
	}
	for route := range map[string]bool{"POST /sandbox": true, "POST /sandbox/{sandboxIdOrName}/stop": true} {
		if routeThrottler(route) == ThrottlerAuthenticated {
			t.Errorf("%s should have its own throttler", route)
		}
	}
}

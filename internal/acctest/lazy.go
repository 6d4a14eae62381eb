package acctest

import "encoding/json"

// LazyString is a configuration variable (config.Variables) whose value is
// read when the step writes it, not when the test case is built: an id an
// earlier step recorded through the pointer.
type LazyString struct{ V *string }

// MarshalJSON writes the value the pointer holds now.
func (l LazyString) MarshalJSON() ([]byte, error) { return json.Marshal(*l.V) }

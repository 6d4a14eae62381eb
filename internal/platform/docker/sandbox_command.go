package docker

import (
	"encoding/json"
	"fmt"
	"strings"
)

// parseCommand turns a template's start_cmd or ready_cmd into exec-form
// arguments. A JSON array (`["/agent", "-v"]`) is taken as is; anything
// else is split on whitespace, without quoting rules. There is deliberately
// no "sh -c" form: sandbox images may have no shell (ours are FROM scratch),
// so a command is always run directly. Empty means "not set".
func parseCommand(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if !strings.HasPrefix(s, "[") {
		return strings.Fields(s), nil
	}
	var args []string
	if err := json.Unmarshal([]byte(s), &args); err != nil {
		return nil, fmt.Errorf("%q starts with '[' but is not a JSON array of strings: %v", s, err)
	}
	if len(args) == 0 || strings.TrimSpace(args[0]) == "" {
		return nil, fmt.Errorf("%q names no program to run", s)
	}
	return args, nil
}

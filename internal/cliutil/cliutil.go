// Package cliutil holds what the provider binary's subcommands (drift,
// orphans) share: flag parsing that allows flags after arguments, and table
// cells that stay on one line.
package cliutil

import (
	"flag"
	"fmt"
	"strings"
)

// ParseInterspersed parses args with fs, allowing flags after positional
// arguments (the flag package stops at the first one), and returns the
// positional arguments in order.
func ParseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// Cell keeps a table cell on one line whatever the value holds (control
// characters are shown escaped), and shows a missing value as "-".
func Cell(s string) string {
	if s == "" {
		return "-"
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		q := fmt.Sprintf("%q", s)
		return q[1 : len(q)-1]
	}
	return s
}

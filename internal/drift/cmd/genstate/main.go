// Command genstate writes a synthetic Terraform state (format version 4)
// with many sbx resources, for measuring the drift detector:
//
//	go run ./internal/drift/cmd/genstate -n 100000 -o /tmp/state.tfstate
//	terraform-provider-sbx drift --now 2026-05-01T12:00:00Z /tmp/state.tfstate
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/sbxhq/terraform-provider-sbx/internal/drift/stategen"
)

func main() {
	n := flag.Int("n", 100000, "number of resources")
	out := flag.String("o", "-", "output file, - for standard output")
	nowFlag := flag.String("now", "2026-05-01T12:00:00Z", "deadlines are placed around this time (RFC 3339)")
	flag.Parse()
	now, err := time.Parse(time.RFC3339, *nowFlag)
	if err != nil {
		fmt.Fprintf(os.Stderr, "genstate: invalid -now %q: %v\n", *nowFlag, err)
		os.Exit(1)
	}
	w := os.Stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintf(os.Stderr, "genstate: %v\n", err)
			os.Exit(1)
		}
		w = f
	}
	c, err := stategen.WriteV4(w, *n, now)
	if err == nil && w != os.Stdout {
		err = w.Close()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "genstate: %v\n", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "genstate: %d resources, %d sbx instances: %d expired, %d expiring, %d ok, %d without a deadline (at %s)\n",
		c.Resources, c.Checked, c.Expired, c.Expiring, c.OK, c.NoDeadline, now.Format(time.RFC3339))
}

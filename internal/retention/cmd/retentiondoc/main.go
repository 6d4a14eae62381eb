// Command retentiondoc writes the retention policy table of the platforms
// the provider registers (provider.Platforms) into a document, between the
// generated-table markers, so the retention guide always shows what the
// code enforces, and only for platforms the provider has. `make docs` runs
// it before tfplugindocs:
//
//	go run ./internal/retention/cmd/retentiondoc templates/guides/retention.md.tmpl
//
// With -check it changes nothing and exits 1 when the document is stale.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
)

func main() {
	check := flag.Bool("check", false, "do not write; exit 1 when the document's table is not what the code generates")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "Usage: retentiondoc [-check] FILE")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(1)
	}
	if err := run(flag.Arg(0), *check, platforms.All()); err != nil {
		fmt.Fprintln(os.Stderr, "retentiondoc:", err)
		os.Exit(1)
	}
}

// run rewrites the table in the document called name from the rules of
// defs (with check: reports a stale table instead).
func run(name string, check bool, defs []platform.Definition) error {
	old, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	table := platform.RetentionTable(defs)
	if err := table.Check(); err != nil {
		return err
	}
	doc, err := table.ReplaceDoc(old, platform.RetentionTitles(defs))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if bytes.Equal(doc, old) {
		return nil
	}
	if check {
		return fmt.Errorf("%s: the retention table is stale: run 'make docs'", name)
	}
	return os.WriteFile(name, doc, 0o644)
}

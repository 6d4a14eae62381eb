package platform

import "github.com/sbxhq/terraform-provider-sbx/internal/retention"

// RetentionTable is the retention policy table of the given platforms:
// each one's Retention rows, in the order given. The provider builds it
// from the platforms it registers, so the table holds the rows of exactly
// those platforms; the retention guide is generated from the same table.
func RetentionTable(defs []Definition) retention.Table {
	sets := make([][]retention.Rule, 0, len(defs))
	for _, d := range defs {
		sets = append(sets, d.Retention)
	}
	return retention.NewTable(sets...)
}

// RetentionTitles maps each platform's name to its Title: the section
// titles of the generated retention table (retention.Table.WriteDoc).
func RetentionTitles(defs []Definition) map[string]string {
	titles := make(map[string]string, len(defs))
	for _, d := range defs {
		titles[d.Name] = d.Title
	}
	return titles
}

// Package stategen writes synthetic Terraform states with many sbx
// resources, for the drift detector's scale tests and benchmarks.
package stategen

import (
	"bufio"
	"fmt"
	"io"
	"time"
)

// Counts is what a generated state holds, so tests assert against it.
type Counts struct {
	Resources  int // every resource written, sbx or not
	Checked    int // sbx_sandbox and sbx_snapshot instances
	Expired    int
	Expiring   int // within 72h of now
	OK         int
	NoDeadline int
}

// WriteV4 writes a version 4 state with n resources. Deadlines are placed
// relative to now, in a fixed rotation: every 10th resource is past its
// deadline, every 10th (offset 1) expires within an hour, every 10th
// (offset 2) has none, every 20th (offset 3) is a data source or another
// provider's resource that drift must skip, and the rest expire in 30 days.
// Every 5th resource lives in a module, every 7th uses for_each, every
// 11th count. Attributes the detector ignores (env, labels) are included so
// the file has a realistic size (~1 KB per resource).
func WriteV4(w io.Writer, n int, now time.Time) (Counts, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	var c Counts
	// bufio.Writer keeps its first error and Flush returns it.
	_, _ = fmt.Fprintf(bw, `{"version":4,"terraform_version":"1.11.4","serial":%d,"lineage":"00000000-0000-4000-8000-000000000000","outputs":{"note":{"value":"synthetic","type":"string"}},"resources":[`, n)
	for i := range n {
		if i > 0 {
			_ = bw.WriteByte(',')
		}
		c.Resources++
		mode, typ := "managed", "sbx_sandbox"
		if i%2 == 1 {
			typ = "sbx_snapshot"
		}
		if i%20 == 3 {
			if i%40 == 3 {
				mode = "data"
			} else {
				typ = "terraform_data"
			}
		}
		module := ""
		if i%5 == 0 {
			module = fmt.Sprintf(`"module":"module.team[\"t%d\"].module.boxes",`, i%13)
		}
		index := ""
		switch {
		case i%7 == 0:
			index = fmt.Sprintf(`"index_key":"k%d",`, i)
		case i%11 == 0:
			index = fmt.Sprintf(`"index_key":%d,`, i%100)
		}
		expires := "null"
		status := "ok"
		counted := mode == "managed" && typ != "terraform_data"
		switch i % 10 {
		case 0:
			expires = `"` + now.Add(-time.Duration(i%48+1)*time.Hour).UTC().Format(time.RFC3339) + `"`
			status = "expired"
			if counted {
				c.Expired++
			}
		case 1:
			expires = `"` + now.Add(time.Duration(i%50+1)*time.Minute).UTC().Format(time.RFC3339) + `"`
			status = "expiring"
			if counted {
				c.Expiring++
			}
		case 2:
			if counted {
				c.NoDeadline++
			}
		default:
			expires = `"` + now.Add(30*24*time.Hour).UTC().Format(time.RFC3339) + `"`
			if counted {
				c.OK++
			}
		}
		if counted {
			c.Checked++
		}
		stateOrKind := `"status":"paused","state":"paused"`
		if typ == "sbx_snapshot" {
			stateOrKind = `"kind":"filesystem","sandbox_id":"c0ffee","ttl":"720h"`
		}
		_, _ = fmt.Fprintf(bw, `{%s"mode":%q,"type":%q,"name":"r%d","provider":"provider[\"registry.terraform.io/sbxhq/sbx\"]","instances":[{%s"schema_version":0,"attributes":{`+
			`"id":"id-%08d","platform":"docker",%s,"expires_at":%s,"retention_rule":"paused_sandbox","retention_action":"delete","retention_status":%q,`+
			`"created_at":"2026-01-01T00:00:00Z","labels":{"team":"t%d","purpose":"agent workspace","sbx.managed":"true"},`+
			`"env":{"API_TOKEN":"redacted-but-long-enough-to-look-real-0123456789","HOME":"/home/agent"},`+
			`"volume_mount":[{"volume_id":"vol-%08d","path":"/workspace","read_only":false}],"cpu_count":2,"memory_mb":2048,"timeouts":null},`+
			`"sensitive_attributes":[[{"type":"get_attr","value":"env"}]],"private":"eyJzY2hlbWFfdmVyc2lvbiI6IjAifQ==","dependencies":["sbx_template.base","sbx_volume.work"]}]}`,
			module, mode, typ, i, index, i, stateOrKind, expires, status, i%13, i)
	}
	_, _ = bw.WriteString(`],"check_results":null}` + "\n")
	return c, bw.Flush()
}

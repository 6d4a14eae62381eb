package platformtest

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// The attribute-table scenarios read the platform's attribute table
// (Capabilities.Attributes) and prove every row through the terraform CLI:
// each attribute the table refuses, and each value outside a row's Values,
// is a plan-time error naming the attribute; each attribute it changes in
// place changes on the live object with its id kept. A row the catalog
// below cannot exercise fails the suite, so a platform cannot claim what
// it does not do.

// attributeCase is how the suite sets one attribute in HCL.
type attributeCase struct {
	// name is the attribute as written in its resource ("labels").
	name string
	// set writes the attribute with an HCL value into its resource's body
	// (a block for volume_mount.read_only); nil: `name = value`.
	set func(value string) string
	// shown is the attribute as errors name it (volume_mount[0].read_only);
	// "" means name.
	shown string
	// refused is a value to show a refused attribute with.
	refused string
	// values are the candidate values checked against a row's Values.
	values []string
	// from and to are an in-place change; needs are lines the resource
	// must also have for the attribute to be valid (on_timeout needs a timeout).
	from, to string
	needs    []string
	// number: the value is an integer, so a row's Min and Max bounds are
	// checked with the values just outside them.
	number bool
	// check is what the state says after the change to `to`
	// (attribute key and value); nil: name = unquoted to.
	check map[string]string
	// block names the single nested block the attribute is set in
	// ("network"): the lines of one block's attributes are merged into
	// one block (mergeBlocks).
	block string
}

// inBlock is an attribute case set inside the single nested block block;
// after the change, the state's block.check is want.
func inBlock(block, name, refused, from, to, check, want string) attributeCase {
	return attributeCase{name: name, shown: block + "." + name, block: block, refused: refused, from: from, to: to,
		set:   func(v string) string { return fmt.Sprintf("  %s {\n    %s = %s\n  }", block, name, v) },
		check: map[string]string{block + "." + check: want}}
}

// blockLine matches a line set by inBlock.
var blockLine = regexp.MustCompile(`(?s)^  (\w+) \{\n(.*)\n  \}$`)

// mergeBlocks merges the lines that set attributes of one single nested
// block (inBlock) into one block, where the first of them stood.
func mergeBlocks(lines []string) []string {
	var out []string
	at := map[string]int{}
	for _, l := range lines {
		m := blockLine.FindStringSubmatch(l)
		if m == nil || m[1] == "volume_mount" {
			out = append(out, l)
			continue
		}
		if i, ok := at[m[1]]; ok {
			out[i] = strings.TrimSuffix(out[i], "\n  }") + "\n" + m[2] + "\n  }"
			continue
		}
		at[m[1]] = len(out)
		out = append(out, l)
	}
	return out
}

// attributeCases is the catalog: every key a table may hold.
func attributeCases(h harness) map[string]attributeCase {
	timeoutFrom, timeoutTo := 30*time.Minute, time.Hour
	if limit := h.Capabilities.Attribute(platform.AttrSandboxTimeout).MaxDuration; limit > 0 && limit < timeoutTo {
		timeoutFrom, timeoutTo = limit/2, limit
	}
	labels := func() attributeCase {
		return attributeCase{name: "labels", refused: `{ team = "ml" }`, from: `{ team = "ml" }`, to: `{ team = "infra" }`,
			check: map[string]string{"labels.team": "infra"}}
	}
	duration := func(name, from, to string) attributeCase {
		return attributeCase{name: name, refused: `"1h"`, from: strconv.Quote(from), to: strconv.Quote(to)}
	}
	return map[string]attributeCase{
		// The harness's Dockerfile, then the same with one more ENV line.
		platform.AttrTemplateDockerfile: {name: "dockerfile", refused: `"FROM scratch"`, from: dockerfileAsGiven, to: dockerfileChanged,
			check: map[string]string{}},
		platform.AttrTemplateImage: {name: "image", refused: `"alpine:3.20"`},
		// Built on another template: a Dockerfile of steps only, no FROM.
		// No from/to: the in-place chain has one template (see
		// testKindInPlace); each platform's acceptance tests change it.
		platform.AttrTemplateFromTemplate: {name: "from_template", refused: `"base"`, needs: []string{`  dockerfile = "RUN true"`}},
		platform.AttrTemplateStartCmd:     {name: "start_cmd", refused: `"/bin/agent"`, from: `"/usr/local/bin/agent"`, to: `"/usr/local/bin/agent --serve"`},
		platform.AttrTemplateReadyCmd:     {name: "ready_cmd", refused: `"true"`, from: `"true"`, to: `"/usr/local/bin/agent ready"`},
		platform.AttrTemplateCPUCount:     {name: "cpu_count", refused: "2", number: true, from: "1", to: "2"},
		platform.AttrTemplateMemoryMB:     {name: "memory_mb", refused: "512", number: true, from: "512", to: "1024"},
		platform.AttrTemplateDiskMB:       {name: "disk_mb", refused: "2048", number: true, from: "2048", to: "4096"},
		platform.AttrTemplateLabels:       labels(),
		platform.AttrTemplatePublic:       {name: "public", refused: "true", from: "false", to: "true"},

		platform.AttrVolumeSizeGB:            {name: "size_gb", refused: "10", number: true, from: "10", to: "20"},
		platform.AttrVolumeRegion:            {name: "region", refused: `"ams"`},
		platform.AttrVolumeLabels:            labels(),
		platform.AttrVolumeFromSnapshotID:    {name: "from_snapshot_id", refused: `"snap"`},
		platform.AttrVolumeSnapshotRetention: {name: "snapshot_retention", refused: "7", number: true, from: "5", to: "10"},

		platform.AttrSandboxFromSnapshotID: {name: "from_snapshot_id", refused: `"snap"`},
		platform.AttrSandboxState: {name: "state", refused: `"paused"`, values: []string{`"running"`, `"paused"`, `"stopped"`},
			from: `"running"`},
		platform.AttrSandboxRegion:   {name: "region", refused: `"ord"`},
		platform.AttrSandboxCPUCount: {name: "cpu_count", refused: "2", number: true, from: "1", to: "2"},
		platform.AttrSandboxMemoryMB: {name: "memory_mb", refused: "1024", number: true, from: "512", to: "1024"},
		platform.AttrSandboxDiskMB:   {name: "disk_mb", refused: "2048", number: true, from: "2048", to: "4096"},
		platform.AttrSandboxEnv: {name: "env", refused: `{ MODE = "a" }`, from: `{ MODE = "a" }`, to: `{ MODE = "b" }`,
			check: map[string]string{"env.MODE": "b"}},
		// A new version applies the write-only env_wo again; the values
		// never reach the state, so only the version is checked there.
		platform.AttrSandboxEnvWOVersion: {name: "env_wo_version", refused: "1", number: true, from: "1", to: "2",
			needs: []string{`  env_wo = { MODE_WO = "a" }`}},
		platform.AttrSandboxLabels: labels(),
		// The value is a number of volume_mount blocks.
		platform.AttrSandboxVolumeMount: {name: "volume_mount", refused: "1", number: true,
			set: func(v string) string {
				n, _ := strconv.Atoi(v)
				var blocks []string
				for i := range n {
					blocks = append(blocks, fmt.Sprintf("  volume_mount {\n    volume_id = \"vol%d\"\n    path      = \"/data%d\"\n  }", i, i))
				}
				return strings.Join(blocks, "\n")
			}},
		platform.AttrSandboxMountReadOnly: {name: "read_only", shown: "volume_mount[0].read_only", refused: "true",
			values: []string{"true", "false"},
			set: func(v string) string {
				return fmt.Sprintf("  volume_mount {\n    volume_id = \"vol\"\n    path      = \"/data\"\n    read_only = %s\n  }", v)
			}},
		platform.AttrSandboxMountSubpath: {name: "subpath", shown: "volume_mount[0].subpath", refused: `"projects/a"`,
			set: func(v string) string {
				return fmt.Sprintf("  volume_mount {\n    volume_id = \"vol\"\n    path      = \"/data\"\n    subpath   = %s\n  }", v)
			}},
		platform.AttrSandboxTimeout: duration("timeout", hclDuration(timeoutFrom), hclDuration(timeoutTo)),
		platform.AttrSandboxOnTimeout: {name: "on_timeout", refused: `"kill"`, values: []string{`"kill"`, `"pause"`, `"stop"`},
			from: `"kill"`, to: `"pause"`, needs: []string{fmt.Sprintf("  timeout = %q", hclDuration(timeoutTo))}},
		platform.AttrSandboxNetworkInternet: func() attributeCase {
			c := inBlock("network", "internet", "false", "true", "false", "internet", "false")
			c.values = []string{"true", "false"}
			return c
		}(),
		platform.AttrSandboxNetworkAllowOut: inBlock("network", "allow_out", `["10.0.0.1/32"]`, `["10.0.0.1/32"]`, `["10.0.0.2/32"]`, "allow_out.0", "10.0.0.2/32"),
		platform.AttrSandboxNetworkDenyOut:  inBlock("network", "deny_out", `["10.9.0.0/16"]`, `["10.9.0.0/16"]`, `["10.8.0.0/16"]`, "deny_out.0", "10.8.0.0/16"),
		platform.AttrSandboxAutoResume: {name: "auto_resume", refused: "true", values: []string{"true", "false"},
			from: "false", to: "true", needs: []string{`  on_timeout = "pause"`, fmt.Sprintf("  timeout = %q", hclDuration(timeoutTo))}},
		// Chosen when the box is made: no in-place change.
		platform.AttrSandboxMemorySnapshots:  {name: "memory_snapshots", refused: "true", values: []string{"true", "false"}},
		platform.AttrSandboxIdleTimeout:      duration("idle_timeout", "30m", "1h"),
		platform.AttrSandboxAutoArchiveAfter: duration("auto_archive_after", "1h", "2h"),
		platform.AttrSandboxAutoDeleteAfter:  duration("auto_delete_after", "1h", "2h"),

		platform.AttrSnapshotSandboxID:     {name: "sandbox_id", refused: `"box"`},
		platform.AttrSnapshotVolumeID:      {name: "volume_id", refused: `"vol"`},
		platform.AttrSnapshotIncludeMemory: {name: "include_memory", refused: "true", values: []string{"true", "false"}},
		platform.AttrSnapshotTTL:           duration("ttl", "24h", "48h"),
		platform.AttrSnapshotLabels:        labels(),
	}
}

// Sentinels of the Dockerfile change: the harness's Dockerfile as given,
// and with one more ENV line (a new build of the same template).
const (
	dockerfileAsGiven = "(as given)"
	dockerfileChanged = "(changed)"
)

var dockerfileLine = regexp.MustCompile(`(?m)^\s*dockerfile\s*=\s*("(?:[^"\\]|\\.)*")\s*$`)

// changeDockerfile adds an ENV line to the Dockerfile of a template body.
func changeDockerfile(t *testing.T, body string) string {
	m := dockerfileLine.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("the harness's template has no one-line dockerfile = \"...\" to change: %s", body)
	}
	df, err := strconv.Unquote(m[1])
	if err != nil {
		t.Fatalf("the harness's dockerfile %s: %v", m[1], err)
	}
	return strings.Replace(body, m[1], strconv.Quote(strings.TrimRight(df, "\n")+"\nENV SBX_CONFORMANCE=changed\n"), 1)
}

// line writes the attribute with value v.
func (c attributeCase) line(v string) string {
	if c.set != nil {
		return c.set(v)
	}
	return fmt.Sprintf("  %s = %s", c.name, v)
}

// path is the attribute as errors name it.
func (c attributeCase) path() string {
	if c.shown != "" {
		return c.shown
	}
	return c.name
}

// refusalsName is the refusal steps' scenario name: they plan and never
// reach the platform, so a platform (or a test platform) that can create
// nothing still runs them.
const refusalsName = "attribute_refusals"

// testAttributeRefusals: every attribute the table refuses, and every
// candidate value outside a row's Values, fails the plan with an error
// naming the attribute, the value and the platform; nothing is created.
func testAttributeRefusals(t *testing.T, h harness) {
	cases := attributeCases(h)
	var steps []resource.TestStep
	for _, key := range platform.AllAttributes() {
		c, ok := cases[key]
		if !ok {
			t.Errorf("attribute %s has no conformance case: add one to attributeCases", key)
			continue
		}
		row := h.Capabilities.Attribute(key)
		var refused []string
		switch {
		case row.Support == platform.Refused:
			refused = []string{c.refused}
		case len(row.Values) > 0:
			for _, v := range c.values {
				if !row.Accepts(strings.Trim(v, `"`)) {
					refused = append(refused, v)
				}
			}
		}
		for _, v := range refused {
			steps = append(steps, resource.TestStep{
				Config:      h.ProviderConfig + "\n" + refusalConfig(key, c, v),
				PlanOnly:    true,
				ExpectError: refusalError(c.path(), h.Name),
			})
		}
		if row.Support == platform.Refused {
			continue
		}
		if row.UpdateOnly {
			// Refused on a new object whatever the value; the in-place
			// chain sets it on a live one.
			steps = append(steps, resource.TestStep{
				Config:      h.ProviderConfig + "\n" + refusalConfig(key, c, stepped(row, c).from),
				PlanOnly:    true,
				ExpectError: createRefusedError(c.path(), h.Name),
			})
			continue
		}
		if c.number && row.Step > 1 {
			steps = append(steps, resource.TestStep{
				Config:      h.ProviderConfig + "\n" + refusalConfig(key, c, strconv.FormatInt(row.Step+row.Step/2, 10)),
				PlanOnly:    true,
				ExpectError: stepError(c.path(), row.Step),
			})
		}
		for _, v := range outOfBounds(row, c) {
			steps = append(steps, resource.TestStep{
				Config:      h.ProviderConfig + "\n" + refusalConfig(key, c, v),
				PlanOnly:    true,
				ExpectError: boundsError(c.path(), h.Name),
			})
		}
	}
	if len(steps) == 0 {
		t.Logf("the %s table refuses no attribute and no value", h.Name)
		return
	}
	t.Logf("%d refusals from the %s attribute table", len(steps), h.Name)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		Steps:                    steps,
	})
}

// refusalConfig is the smallest resource that sets the attribute to v.
func refusalConfig(key string, c attributeCase, v string) string {
	kind, _, _ := strings.Cut(key, ".")
	lines := append([]string{}, c.needs...)
	lines = append(lines, c.line(v))
	body := strings.Join(lines, "\n")
	switch kind {
	case platform.KindTemplate:
		source := `  image = "alpine:3.20"`
		if c.name == "dockerfile" || c.name == "image" || c.name == "from_template" {
			source = ""
		}
		return fmt.Sprintf("resource \"sbx_template\" \"t\" {\n  name = \"refused\"\n%s\n%s\n}\n", source, body)
	case platform.KindVolume:
		return fmt.Sprintf("resource \"sbx_volume\" \"v\" {\n  name = \"refused\"\n%s\n}\n", body)
	case platform.KindSandbox:
		source := `  template_id = "tpl"`
		if c.name == "from_snapshot_id" {
			source = "" // a box starts from a template or a snapshot
		}
		return fmt.Sprintf("resource \"sbx_sandbox\" \"s\" {\n%s\n%s\n}\n", source, body)
	default:
		source := `  sandbox_id = "box"`
		if c.name == "sandbox_id" || c.name == "volume_id" {
			source = ""
		}
		return fmt.Sprintf("resource \"sbx_snapshot\" \"s\" {\n%s\n%s\n}\n", source, body)
	}
}

// outOfBounds returns the values just outside a row's bounds: Min-1 and
// Max+1 for numbers (and counts of blocks), twice MaxDuration for durations.
func outOfBounds(row platform.Attribute, c attributeCase) []string {
	var out []string
	if c.number && row.Min > 1 {
		out = append(out, strconv.FormatInt(row.Min-1, 10))
	}
	if c.number && row.Max > 0 {
		out = append(out, strconv.FormatInt(row.Max+1, 10))
	}
	if row.MaxDuration > 0 && strings.HasPrefix(c.refused, `"`) {
		out = append(out, strconv.Quote(hclDuration(2*row.MaxDuration)))
	}
	return out
}

// boundsError matches the plan-time error of a value outside a row's
// bounds, naming the attribute and the platform.
func boundsError(attribute, name string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + regexp.QuoteMeta(attribute) + `.*?(below|above)\s+the\s+(minimum|maximum)\s+of\s+.*?on\s+` +
		regexp.QuoteMeta(name))
}

// createRefusedError matches the plan-time refusal of an UpdateOnly
// attribute on a new object.
func createRefusedError(attribute, name string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + regexp.QuoteMeta(attribute) + `\s+cannot\s+be\s+set\s+at\s+create\s+on\s+` + regexp.QuoteMeta(name))
}

// stepError matches the plan-time error of a number that is not a
// multiple of its row's Step.
func stepError(attribute string, step int64) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + regexp.QuoteMeta(attribute) + `.*?not\s+a\s+multiple\s+of\s+` + strconv.FormatInt(step, 10))
}

// shrinkError matches the plan-time error of a GrowOnly number made smaller.
func shrinkError(attribute string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + regexp.QuoteMeta(attribute) + `\s+cannot\s+shrink`)
}

// stepped is c with its in-place values made multiples of the row's Step
// (Step and twice it), so a platform that sizes in whole units takes them.
func stepped(row platform.Attribute, c attributeCase) attributeCase {
	if c.number && row.Step > 1 {
		c.from, c.to = strconv.FormatInt(row.Step, 10), strconv.FormatInt(2*row.Step, 10)
	}
	return c
}

// refusalError matches the plan-time refusal of attribute on platform
// name, as terraform prints it (wrapped at any space).
func refusalError(attribute, name string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + regexp.QuoteMeta(attribute) + `\s+=\s+.*?is\s+not\s+supported\s+on\s+` + regexp.QuoteMeta(name))
}

// testAttributesInPlace: for each resource, every attribute the table
// changes in place is changed, one apply each, on one live object whose id
// never changes, each apply converging to an empty plan.
func testAttributesInPlace(t *testing.T, h harness) {
	cases := attributeCases(h)
	for _, kind := range []string{platform.KindTemplate, platform.KindVolume, platform.KindSandbox} {
		var keys []string
		for _, key := range h.Capabilities.Attributes.Where(kind, platform.InPlace) {
			if key == platform.AttrSandboxState {
				continue // last: a paused box is changed no further
			}
			if key == platform.AttrTemplateFromTemplate {
				// Changing it needs two base templates besides the one the
				// chain changes, which the harness's single template
				// configuration cannot give: the platforms' own acceptance
				// tests change from_template in place instead.
				t.Logf("the %s table changes %s in place; not changed here: the chain has one template, "+
					"and the platform's from_template acceptance test changes it", h.Name, key)
				continue
			}
			keys = append(keys, key)
		}
		keys = memoryBeforeCPU(keys)
		if kind == platform.KindSandbox && h.Capabilities.InPlace(platform.AttrSandboxState) {
			keys = append(keys, platform.AttrSandboxState)
		}
		t.Run(kind, func(t *testing.T) {
			if len(keys) == 0 {
				t.Logf("the %s table changes no %s attribute in place", h.Name, kind)
				return
			}
			testKindInPlace(t, h, kind, keys, cases)
		})
	}
	if keys := h.Capabilities.Attributes.Where(platform.KindSnapshot, platform.InPlace); len(keys) > 0 {
		t.Errorf("the table changes snapshot attributes %v in place, which no snapshot can: snapshots are immutable", keys)
	}
}

// memoryBeforeCPU moves a memory_mb key ahead of the cpu_count key of the
// same kind. The chain changes one key at a time and keeps each change, so
// memory grows first: a platform that sells a CPU count only with enough
// memory (Fly: at least 512 MB for 2 CPUs) is never asked for more CPUs
// with the memory of the smaller size.
func memoryBeforeCPU(keys []string) []string {
	out := append([]string(nil), keys...)
	for _, pair := range [][2]string{
		{platform.AttrTemplateCPUCount, platform.AttrTemplateMemoryMB},
		{platform.AttrSandboxCPUCount, platform.AttrSandboxMemoryMB},
	} {
		cpu, mem := slices.Index(out, pair[0]), slices.Index(out, pair[1])
		if cpu >= 0 && mem > cpu {
			out = slices.Delete(out, mem, mem+1)
			out = slices.Insert(out, cpu, pair[1])
		}
	}
	return out
}

// testKindInPlace changes keys one at a time on one object of kind.
func testKindInPlace(t *testing.T, h harness, kind string, keys []string, cases map[string]attributeCase) {
	r := newRun(h)
	values := map[string]string{}
	var order []string
	for _, key := range keys {
		c, ok := cases[key]
		if !ok || c.from == "" {
			t.Fatalf("the %s table changes %s in place, but the suite has no in-place case for it: add from/to to attributeCases", h.Name, key)
		}
		row := h.Capabilities.Attribute(key)
		c = stepped(row, c)
		cases[key] = c
		values[key] = c.from
		if row.UpdateOnly {
			values[key] = "" // left out of the create; the change sets it
		}
		order = append(order, key)
	}
	addr, objKind := map[string]string{
		platform.KindTemplate: "sbx_template.t", platform.KindVolume: "sbx_volume.v", platform.KindSandbox: "sbx_sandbox.s",
	}[kind], kind
	config := func() string {
		var lines []string
		seen := map[string]bool{}
		changing := map[string]bool{} // attributes the steps set: a need does not set them again
		for _, key := range order {
			changing[cases[key].name] = true
		}
		for _, key := range order {
			c := cases[key]
			if key == platform.AttrTemplateDockerfile {
				continue // changed in the harness's body below
			}
			if values[key] == "" {
				continue // an UpdateOnly attribute before its change
			}
			for _, n := range c.needs {
				if name, _, _ := strings.Cut(strings.TrimSpace(n), " "); !seen[n] && !changing[name] {
					lines, seen[n] = append(lines, n), true
				}
			}
			lines = append(lines, c.line(values[key]))
		}
		lines = mergeBlocks(lines)
		switch kind {
		case platform.KindTemplate:
			body := h.TemplateConfig(r.name + "-tpl")
			for _, key := range order {
				if key != platform.AttrTemplateDockerfile {
					body = withoutAttribute(body, cases[key].name)
				}
			}
			if values[platform.AttrTemplateDockerfile] == dockerfileChanged {
				body = changeDockerfile(t, body)
			}
			return r.config(fmt.Sprintf("resource \"sbx_template\" \"t\" {\n%s\n%s\n}\n", body, strings.Join(lines, "\n")))
		case platform.KindVolume:
			return r.config(fmt.Sprintf("resource \"sbx_volume\" \"v\" {\n  name = %q\n%s\n}\n", r.volumeName("v"), strings.Join(lines, "\n")))
		default:
			box := r.sandbox("s", lines...)
			if v, ok := values[platform.AttrSandboxLabels]; ok {
				// The suite's labels replace the run's own.
				box = withoutAttribute(box, "labels")
				end := strings.LastIndex(box, "}")
				box = box[:end] + cases[platform.AttrSandboxLabels].line(v) + "\n" + box[end:]
			}
			return r.config(r.template(), box)
		}
	}
	var id string
	steps := []resource.TestStep{{
		Config:           config(),
		ConfigPlanChecks: emptyPlanAfterApply(),
		Check:            captureID(addr, &id),
	}}
	for _, key := range order {
		c := cases[key]
		to := c.to
		if key == platform.AttrSandboxState {
			to = firstOtherState(h)
		}
		values[key] = to
		check := c.check
		if check == nil {
			check = map[string]string{c.name: strings.Trim(to, `"`)}
		}
		checks := []resource.TestCheckFunc{idIs(addr, &id), existsOnPlatform(t, h, objKind, &id)}
		for k, v := range check {
			checks = append(checks, resource.TestCheckResourceAttr(addr, k, v))
		}
		steps = append(steps, resource.TestStep{
			Config:           config(),
			ConfigPlanChecks: expectAction(addr, plancheck.ResourceActionUpdate),
			Check:            resource.ComposeAggregateTestCheckFunc(checks...),
		})
	}
	// A number that only grows: making it smaller again is a plan-time
	// error on the live object.
	for _, key := range order {
		c, row := cases[key], h.Capabilities.Attribute(key)
		if !row.GrowOnly || !c.number || key == platform.AttrSandboxState {
			continue
		}
		to := values[key]
		values[key] = c.from
		steps = append(steps, resource.TestStep{Config: config(), PlanOnly: true, ExpectError: shrinkError(c.path())})
		values[key] = to
	}
	t.Logf("in place on %s: %v", h.Name, order)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: h.ProviderFactories,
		CheckDestroy:             goneFromPlatform(t, h, map[string]*string{objKind: &id}),
		Steps:                    steps,
	})
}

// firstOtherState is the first state besides running the table accepts.
func firstOtherState(h harness) string {
	for _, s := range []string{string(platform.StatePaused), string(platform.StateStopped)} {
		if h.Capabilities.AcceptsValue(platform.AttrSandboxState, s) {
			return strconv.Quote(s)
		}
	}
	return strconv.Quote(string(platform.StateRunning))
}

// withoutAttribute drops the lines setting name (`  name = ...`) from an
// HCL body, so the suite can set it itself.
func withoutAttribute(body, name string) string {
	re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(name) + `\s*=.*\n?`)
	return re.ReplaceAllString(body, "")
}

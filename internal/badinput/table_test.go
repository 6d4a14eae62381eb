package badinput_test

import (
	"fmt"
	"strings"
)

// flyToken is the token of the row whose fly block names no app: its
// api_url reaches no server, since the provider refuses the block first.
const flyToken = "fly_badinput_token_93be"

// w is the parts of an expected error, in order.
func w(parts ...string) []string { return parts }

// whole is the error of a fraction in the number attribute attr: its
// value, and the whole numbers below and above it.
func whole(attr, value, below, above string) []string {
	return w(attr + " = " + value + " is not a whole number: " + attr + " takes whole numbers only. Round it down to " + below + " or up to " + above + ".")
}

// emptyID is the error of an empty or blank id of a kind of object in attr.
func emptyID(attr, quoted, kind string) []string {
	return w(attr + " = " + quoted + ": an id cannot be empty or blank; give the id of a " + kind + ", such as sbx_" + kind + ".x.id.")
}

// badRows is the table. Each row's error names the attribute (or the
// Dockerfile line, or the provider setting) and what is allowed instead.
func badRows() []row {
	long64 := strings.Repeat("a", 64)
	long256 := strings.Repeat("v", 256)
	reserved := func(key string) []string {
		return w(`labels: the key "`+key+`" starts with "sbx.terraform.", which is reserved`, "Use another key.")
	}
	boxName := func(got string) []string {
		return w("Attribute name must be 1-63 characters of letters, digits, '_', '.' or '-', starting with a letter or digit, got: " + got)
	}
	volName := func(got string) []string {
		return w("Attribute name must be letters, digits, '_', '.' or '-', starting with a letter or digit, got: " + got)
	}
	return []row{
		// Names.
		{category: "names", name: "sandbox_empty", platform: e2b, config: named(e2b, ""),
			want: w(`name = ""`, "Attribute name must be 1-63 characters of letters, digits, '_', '.' or '-', starting with a letter or digit, got:")},
		{category: "names", name: "sandbox_too_long", platform: daytona, config: named(daytona, long64), want: boxName(long64)},
		{category: "names", name: "sandbox_invalid_chars", platform: fly, config: named(fly, "agent box!"), want: boxName("agent box!")},
		{category: "names", name: "sandbox_leading_dash", platform: modal, config: named(modal, "-agent"), want: boxName("-agent")},
		{category: "names", name: "volume_too_long", platform: modal, config: vol(`name = "` + long256 + `"`),
			want: w("Attribute name string length must be at most 255, got: 256")},
		{category: "names", name: "volume_invalid_chars", platform: fly, config: vol(`name = "data/vol"`), want: volName("data/vol")},
		// E2B's volume names have no '.', which the schema allows.
		{category: "names", name: "e2b_volume_dot", platform: e2b, config: vol(`name = "data.v1"`),
			want: w(`name = "data.v1": e2b volume names are letters, digits, '_' and '-' only.`, `Use a name such as "data-v1".`)},
		{category: "names", name: "volume_empty", platform: daytona, config: vol(`name = ""`), want: w(`name = ""`, volName("")[0])},
		{category: "names", name: "template_uppercase", platform: e2b, config: tpl("name  = \"Agent\"\nimage = \"alpine:3.20\""),
			want: w("Attribute name must be lowercase letters and digits, optionally separated by single '.', '_' or '-'", "got: Agent")},
		{category: "names", name: "sandbox_twice", platform: e2b,
			config: named(e2b, "twin") + strings.Replace(named(e2b, "twin"), `"s"`, `"s2"`, 1),
			want:   w("Two resources name the same sandbox", `also has name = "twin"`, "Give each resource its own name")},
		{category: "names", name: "volume_twice", platform: docker,
			config: vol(`name = "twin"`) + strings.Replace(vol(`name = "twin"`), `"v"`, `"v2"`, 1),
			want:   w("Two resources name the same volume", `also has name = "twin"`, "Give each resource its own name")},
		{category: "names", name: "daytona_template_invalid", platform: daytona, config: tpl("name  = \"py@3\"\nimage = \"python:3.12-slim\""),
			want: w("Attribute name must be lowercase letters and digits", "got: py@3")},

		// Sizes.
		{category: "sizes", name: "fly_volume_zero", platform: fly, config: vol("name    = \"sized\"\nsize_gb = 0"),
			want: w("Attribute size_gb value must be at least 1, got: 0")},
		{category: "sizes", name: "fly_volume_negative", platform: fly, config: vol("name    = \"sized\"\nsize_gb = -5"),
			want: w("Attribute size_gb value must be at least 1, got: -5")},
		{category: "sizes", name: "fly_volume_over_max", platform: fly, config: vol("name    = \"sized\"\nsize_gb = 501"),
			want: w("size_gb = 501 is above the maximum of 500 on fly. Set size_gb to 500 or less.")},
		{category: "sizes", name: "fly_snapshot_retention_over_max", platform: fly, config: vol("name               = \"sized\"\nsnapshot_retention = 61"),
			want: w("snapshot_retention = 61 is above the maximum of 60 on fly. Set snapshot_retention to 60 or less.")},
		{category: "sizes", name: "fly_memory_below_min", platform: fly, config: box(fly, "memory_mb = 128"),
			want: w("memory_mb = 128 is below the minimum of 256 on fly. Set memory_mb to 256 or more")},
		{category: "sizes", name: "fly_memory_not_multiple", platform: fly, config: box(fly, "memory_mb = 300"),
			want: w("memory_mb = 300 is not a multiple of 256, the only sizes fly offers. Set memory_mb to 256 or 512.")},
		{category: "sizes", name: "modal_cpu_zero", platform: modal, config: box(modal, "cpu_count = 0"),
			want: w("Attribute cpu_count value must be at least 1, got: 0")},
		{category: "sizes", name: "daytona_cpu_at_create", platform: daytona, config: box(daytona, "cpu_count = 2"),
			want: w("cpu_count = 2 cannot be set when daytona makes the object", "set it on the sbx_template")},
		{category: "sizes", name: "daytona_disk_not_gib", platform: daytona, config: tpl("name    = \"disk\"\nimage   = \"python:3.12-slim\"\ndisk_mb = 1500"),
			want: w("disk_mb = 1500 is not a multiple of 1024, the only sizes daytona offers. Set disk_mb to 1024 or 2048.")},
		{category: "sizes", name: "e2b_volume_size", platform: e2b, config: vol("name    = \"sized\"\nsize_gb = 10"),
			want: w("size_gb = 10 is not supported on e2b: volumes on this platform have no size; remove size_gb")},
		{category: "sizes", name: "e2b_sandbox_memory", platform: e2b, config: box(e2b, "memory_mb = 1024"),
			want: w("memory_mb = 1024 is not supported on e2b", "set it on the sbx_template")},
		{category: "sizes", name: "docker_memory_below_min", platform: docker, engine: true, config: box(docker, "memory_mb = 4"),
			want: w("memory_mb = 4 is below the minimum of 6 on docker. Set memory_mb to 6 or more")},

		// Whole numbers: a fraction in a number attribute, refused naming
		// the attribute and the whole numbers either side (once the
		// framework's "Configuration Read Error").
		{category: "whole_numbers", name: "volume_size_gb", platform: fly, config: vol("name    = \"sized\"\nsize_gb = 1.5"),
			want: whole("size_gb", "1.5", "1", "2")},
		{category: "whole_numbers", name: "volume_snapshot_retention", platform: fly, config: vol("name               = \"sized\"\nsnapshot_retention = 7.5"),
			want: whole("snapshot_retention", "7.5", "7", "8")},
		{category: "whole_numbers", name: "sandbox_cpu_count", platform: modal, config: box(modal, "cpu_count = 1.5"),
			want: whole("cpu_count", "1.5", "1", "2")},
		{category: "whole_numbers", name: "sandbox_memory_mb", platform: docker, config: box(docker, "memory_mb = 512.5"),
			want: whole("memory_mb", "512.5", "512", "513")},
		{category: "whole_numbers", name: "sandbox_disk_mb_negative", platform: e2b, config: box(e2b, "disk_mb = -0.5"),
			want: whole("disk_mb", "-0.5", "-1", "0")},
		{category: "whole_numbers", name: "sandbox_env_wo_version", platform: modal, config: box(modal, "env_wo_version = 1.5"),
			want: whole("env_wo_version", "1.5", "1", "2")},
		{category: "whole_numbers", name: "template_cpu_count", platform: daytona, config: tpl("name      = \"frac\"\nimage     = \"python:3.12-slim\"\ncpu_count = 1.5"),
			want: whole("cpu_count", "1.5", "1", "2")},
		{category: "whole_numbers", name: "template_memory_mb", platform: e2b, config: tpl("name      = \"frac\"\nimage     = \"alpine:3.20\"\nmemory_mb = 1024.5"),
			want: whole("memory_mb", "1024.5", "1024", "1025")},
		{category: "whole_numbers", name: "template_disk_mb", platform: docker, config: tpl("name    = \"frac\"\nimage   = \"alpine:3.20\"\ndisk_mb = 2048.25"),
			want: whole("disk_mb", "2048.25", "2048", "2049")},
		{category: "whole_numbers", name: "provider_max_retries", platform: daytona, provider: []string{"max_retries = 2.5"},
			config: vol(`name = "retries"`), want: whole("max_retries", "2.5", "2", "3")},

		// Durations.
		{category: "durations", name: "words", platform: e2b, config: box(e2b, `timeout = "5 minutes"`),
			want: w(`timeout = "5 minutes": not a duration; use a positive duration such as 1h, 90m or 7d.`)},
		{category: "durations", name: "negative", platform: e2b, config: box(e2b, `timeout = "-1h"`),
			want: w(`timeout = "-1h": must be positive; use a positive duration such as 1h, 90m or 7d.`)},
		{category: "durations", name: "zero", platform: modal, config: box(modal, `idle_timeout = "0s"`),
			want: w(`idle_timeout = "0s": must be positive; use a positive duration such as 1h, 90m or 7d.`)},
		{category: "durations", name: "e2b_base_over_1h", platform: e2b, config: box(e2b, `timeout = "2h"`),
			want: w(`timeout = "2h" is above the maximum of 1h on e2b. Set timeout to 1h or less.`)},
		{category: "durations", name: "modal_over_24h", platform: modal, config: box(modal, `timeout = "25h"`),
			want: w(`timeout = "25h" is above the maximum of 1d on modal. Set timeout to 1d or less.`)},
		{category: "durations", name: "daytona_archive_over_30d", platform: daytona, config: box(daytona, `auto_archive_after = "31d"`),
			want: w(`auto_archive_after = "31d" is above the maximum of 30d on daytona. Set auto_archive_after to 30d or less.`)},
		{category: "durations", name: "daytona_idle_not_minutes", platform: daytona, config: box(daytona, `idle_timeout = "90s"`),
			want: w("idle_timeout is not a whole number of minutes", "1m30s is not one: round it to a minute (e.g. 2m0s)")},
		{category: "durations", name: "snapshot_ttl_words", platform: modal, config: snap("sandbox_id = \"sb-0123\"\nttl        = \"a week\""),
			want: w(`ttl = "a week": not a duration; use a positive duration such as 1h, 90m or 7d.`)},
		{category: "durations", name: "on_timeout_without_timeout", platform: e2b, config: box(e2b, `on_timeout = "pause"`),
			want: w(`Attribute "timeout" must be specified when "on_timeout" is specified`)},
		{category: "durations", name: "timeouts_create_words", platform: fly, config: box(fly, "timeouts {\n  create = \"ten minutes\"\n}"),
			want: w(`create = "ten minutes"`, `"ten minutes" must be a string containing a sequence of decimal numbers`, `Valid time units are "ns"`)},
		{category: "durations", name: "fly_timeout_refused", platform: fly, config: box(fly, `timeout = "1h"`),
			want: w(`timeout = "1h" is not supported on fly: Fly has no per-machine deadline; remove it`)},
		{category: "durations", name: "e2b_snapshot_ttl_refused", platform: e2b, config: snap("sandbox_id = \"sb-1\"\nttl        = \"1h\""),
			want: w(`ttl = "1h" is not supported on e2b`, "remove `ttl`")},

		// States.
		{category: "states", name: "unknown_state", platform: e2b, config: box(e2b, `state = "frozen"`),
			want: w(`Attribute state value must be one of: ["running" "paused" "stopped"], got: "frozen"`)},
		{category: "states", name: "modal_paused", platform: modal, config: box(modal, `state = "paused"`),
			want: w(`state = "paused" is not supported on modal: state must be one of "running"`)},
		{category: "states", name: "modal_stopped", platform: modal, config: box(modal, `state = "stopped"`),
			want: w(`state = "stopped" is not supported on modal: state must be one of "running"`)},
		{category: "states", name: "unknown_on_timeout", platform: e2b, config: box(e2b, "timeout    = \"1h\"\non_timeout = \"hibernate\""),
			want: w(`Attribute on_timeout value must be one of: ["kill" "pause" "stop"], got: "hibernate"`)},
		{category: "states", name: "modal_on_timeout_pause", platform: modal, config: box(modal, "timeout    = \"1h\"\non_timeout = \"pause\""),
			want: w(`on_timeout = "pause" is not supported on modal: on_timeout must be one of "kill"`)},
		{category: "states", name: "daytona_auto_resume", platform: daytona, config: box(daytona, `auto_resume = true`),
			want: w(`auto_resume = true is not supported on daytona`, `remove auto_resume and set state = "running"`)},
		{category: "states", name: "fly_memory_snapshots", platform: fly, config: box(fly, `memory_snapshots = true`),
			want: w(`memory_snapshots = true is not supported on fly: memory_snapshots must be one of false`)},

		// Mounts.
		{category: "mounts", name: "relative_path", platform: e2b, config: box(e2b, mount("vol-1", "data")),
			want: w(`volume_mount[0].path = "data" is not an absolute path: a mount path must start with /, e.g. /data.`)},
		{category: "mounts", name: "root_path", platform: daytona, config: box(daytona, mount("vol-1", "/")),
			want: w(`volume_mount[0].path = "/" would mount over the sandbox's root filesystem: choose a directory such as /data.`)},
		{category: "mounts", name: "duplicate_path", platform: modal, config: box(modal, mount("vol-1", "/data")+"\n"+mount("vol-2", "/data")),
			want: w(`volume_mount[0].path and volume_mount[1].path both mount at "/data". Each volume_mount needs its own path.`)},
		{category: "mounts", name: "subpath_dotdot", platform: daytona, config: box(daytona, mount("vol-1", "/data", `subpath = "a/../../b"`)),
			want: w(`volume_mount[0].subpath = "a/../../b" contains ..: a subpath must stay inside the volume.`)},
		{category: "mounts", name: "subpath_absolute", platform: daytona, config: box(daytona, mount("vol-1", "/data", `subpath = "/abs"`)),
			want: w(`volume_mount[0].subpath = "/abs" starts with /: a subpath is relative to the volume's root, e.g. projects/a.`)},
		{category: "mounts", name: "subpath_refused_e2b", platform: e2b, config: box(e2b, mount("vol-1", "/data", `subpath = "x"`)),
			want: w(`volume_mount[0].subpath = "x" is not supported on e2b: a volume is mounted whole here`, "or remove subpath")},
		{category: "mounts", name: "fly_two_volumes", platform: fly, config: box(fly, mount("vol_1", "/a")+"\n"+mount("vol_2", "/b")),
			want: w("volume_mount: 2 blocks are above the maximum of 1 on fly. Keep 1 or fewer.")},
		{category: "mounts", name: "read_only_refused_fly", platform: fly, config: box(fly, mount("vol_1", "/a", "read_only = true")),
			want: w("volume_mount[0].read_only = true is not supported on fly: volume_mount[0].read_only must be one of false")},

		// Dockerfiles and build contexts.
		{category: "dockerfiles", name: "e2b_no_from", platform: e2b, config: dockerfile("nofrom", "RUN echo hi\n"),
			want: w("dockerfile line 1: RUN: the first instruction must be FROM")},
		{category: "dockerfiles", name: "daytona_no_from", platform: daytona, config: dockerfile("nofrom", "RUN echo hi\n"),
			want: w("dockerfile line 1: RUN comes before FROM", "only ARG may come before the FROM line")},
		{category: "dockerfiles", name: "e2b_instruction_before_from", platform: e2b, config: dockerfile("before", "RUN echo hi\nFROM alpine:3.20\n"),
			want: w("dockerfile line 1: RUN: the first instruction must be FROM")},
		{category: "dockerfiles", name: "daytona_instruction_before_from", platform: daytona, config: dockerfile("before", "RUN echo hi\nFROM alpine:3.20\n"),
			want: w("dockerfile line 1", "FROM")},
		{category: "dockerfiles", name: "modal_instruction_before_from", platform: modal, config: dockerfile("before", "RUN echo hi\nFROM alpine:3.20\n"),
			want: w("dockerfile line 1: RUN before FROM", "move the instruction after FROM")},
		{category: "dockerfiles", name: "docker_no_from", platform: docker, engine: true, config: dockerfile("nofrom", "RUN echo hi\n"),
			want: w("dockerfile line 1", "FROM")},
		{category: "dockerfiles", name: "docker_instruction_before_from", platform: docker, engine: true, config: dockerfile("before", "RUN echo hi\nFROM alpine:3.20\n"),
			want: w("dockerfile line 1", "FROM")},
		{category: "durations", name: "docker_idle_timeout", platform: docker, engine: true, config: box(docker, `idle_timeout = "1h"`),
			want: w(`idle_timeout = "1h" is not supported on docker`, "remove idle_timeout")},
		{category: "dockerfiles", name: "heredoc_e2b", platform: e2b, config: dockerfile("heredoc", "FROM alpine:3.20\nRUN <<EOF\necho hi\nEOF\n"),
			want: w("dockerfile line 2: RUN: heredocs are not supported on E2B; write the content with RUN printf or COPY a file")},
		{category: "dockerfiles", name: "modal_local_copy", platform: modal, config: dockerfile("copy", "FROM python:3.12-slim\nCOPY agent.py /app/agent.py\n"),
			want: w("dockerfile line 2: COPY of local files", "only COPY --from=<image or stage>")},
		{category: "dockerfiles", name: "fly_dockerfile", platform: fly, config: dockerfile("flybuild", "FROM alpine:3.20\n"),
			want: w("dockerfile = (a Dockerfile) is not supported on fly", "give it with image")},
		{category: "dockerfiles", name: "daytona_latest_tag", platform: daytona, config: tpl("name  = \"latest\"\nimage = \"python:latest\""),
			want: w(`image "python:latest" has the tag "latest": Daytona refuses the moving tags latest, lts and stable; pin a version`)},
		{category: "dockerfiles", name: "context_dir_missing", platform: e2b,
			config: tpl(fmt.Sprintf("name        = \"ctx\"\ndockerfile  = \"FROM alpine:3.20\\nCOPY a /a\\n\"\ncontext_dir = %q", missingDir)),
			want:   w(fmt.Sprintf("context_dir = %q does not exist on this machine. Set it to the directory holding the files the Dockerfile copies", missingDir))},
		{category: "dockerfiles", name: "from_template_with_from", platform: e2b,
			config: tpl("name          = \"child\"\nfrom_template = \"base-tpl\"\ndockerfile    = \"FROM alpine:3.20\\nRUN true\\n\""),
			want:   w("dockerfile line 1 is a FROM instruction, but the template is built on from_template", "Remove line 1")},
		{category: "dockerfiles", name: "dockerfile_and_image", platform: e2b,
			config: tpl("name       = \"both\"\nimage      = \"alpine:3.20\"\ndockerfile = \"FROM alpine:3.20\\n\""),
			want:   w("Exactly one of these attributes must be configured: [dockerfile,image]")},
		{category: "dockerfiles", name: "neither_dockerfile_nor_image", platform: daytona, config: tpl(`name = "empty"`),
			want: w("Exactly one of these attributes must be configured: [dockerfile,image]")},
		{category: "dockerfiles", name: "modal_public", platform: modal, config: tpl("name   = \"pub\"\nimage  = \"alpine:3.20\"\npublic = true"),
			want: w("public = true is not supported on modal: Modal Images are private to the workspace; remove public")},

		// Labels with the reserved prefix.
		{category: "labels", name: "sandbox", platform: e2b, config: box(e2b, "labels = {\n  \"sbx.terraform.owner\" = \"me\"\n}"),
			want: reserved("sbx.terraform.owner")},
		{category: "labels", name: "template", platform: daytona, config: tpl("name   = \"lbl\"\nimage  = \"python:3.12-slim\"\nlabels = {\n  \"sbx.terraform.token\" = \"x\"\n}"),
			want: reserved("sbx.terraform.token")},
		{category: "labels", name: "snapshot", platform: modal, config: snap("sandbox_id = \"sb-0123\"\nttl        = \"1h\"\nlabels = {\n  \"sbx.terraform.x\" = \"y\"\n}"),
			want: reserved("sbx.terraform.x")},
		{category: "labels", name: "volume_docker", platform: docker, config: vol("name   = \"lbl\"\nlabels = {\n  \"sbx.terraform.owner\" = \"me\"\n}"),
			want: reserved("sbx.terraform.owner")},
		{category: "labels", name: "sandboxes_filter", platform: fly, config: "data \"sbx_sandboxes\" \"x\" {\n  labels = {\n    \"sbx.terraform.owner\" = \"me\"\n  }\n}\n",
			want: reserved("sbx.terraform.owner")},
		// Empty label keys: refused at plan time on every platform.
		{category: "labels", name: "empty_key_volume_docker", platform: docker, config: vol("name   = \"lbl\"\nlabels = {\n  \"\" = \"y\"\n}"),
			want: w(`labels: the key "" is empty.`, "Give every label a key of one or more characters")},
		{category: "labels", name: "empty_key_sandbox_docker", platform: docker, config: box(docker, "labels = {\n  \"\" = \"y\"\n}"),
			want: w(`labels: the key "" is empty.`)},
		{category: "labels", name: "blank_key_sandbox_e2b", platform: e2b, config: box(e2b, "labels = {\n  \" \" = \"y\"\n}"),
			want: w(`labels: the key " " is empty.`)},
		{category: "labels", name: "empty_key_template_daytona", platform: daytona, config: tpl("name   = \"lbl\"\nimage  = \"python:3.12-slim\"\nlabels = {\n  \"\" = \"x\"\n}"),
			want: w(`labels: the key "" is empty.`)},
		{category: "labels", name: "empty_key_snapshot_modal", platform: modal, config: snap("sandbox_id = \"sb-0123\"\nttl        = \"1h\"\nlabels = {\n  \"\" = \"y\"\n}"),
			want: w(`labels: the key "" is empty.`)},
		{category: "labels", name: "volume_refused_fly", platform: fly, config: vol("name   = \"lbl\"\nlabels = {\n  team = \"a\"\n}"),
			want: w(`labels = { team = "a" } is not supported on fly: Fly volumes carry no labels; remove labels`)},

		// Snapshot sources.
		{category: "snapshots", name: "both_sources", platform: e2b, config: snap("sandbox_id = \"sb-1\"\nvolume_id  = \"vol-1\""),
			want: w("Exactly one of these attributes must be configured: [sandbox_id,volume_id]")},
		{category: "snapshots", name: "no_source", platform: daytona, config: snap(`name = "lonely"`),
			want: w("Exactly one of these attributes must be configured: [sandbox_id,volume_id]")},
		{category: "snapshots", name: "fly_of_sandbox", platform: fly, config: snap(`sandbox_id = "m_1"`),
			want: w(`sandbox_id = "m_1" is not supported on fly: Fly snapshots volumes, not machines; snapshot the sandbox's volume with volume_id`)},
		{category: "snapshots", name: "e2b_of_volume", platform: e2b, config: snap(`volume_id = "vol-1"`),
			want: w(`volume_id = "vol-1" is not supported on e2b: this platform cannot snapshot volumes; snapshot the sandbox that mounts it with`, "sandbox_id")},
		{category: "snapshots", name: "fly_name", platform: fly, config: snap("volume_id = \"vol_1\"\nname      = \"nightly\""),
			want: w(`name = "nightly": fly snapshots have no name`, "remove name and find the snapshot by its source")},
		{category: "snapshots", name: "volume_include_memory", platform: fly, config: snap("volume_id      = \"vol_1\"\ninclude_memory = true"),
			want: w("These attributes cannot be configured together: [include_memory,volume_id]")},

		// Ids of other objects: an empty or blank one passed the plan to
		// fail the apply.
		{category: "ids", name: "mount_volume_id_empty", platform: e2b, config: box(e2b, mount("", "/data")),
			want: emptyID("volume_mount[0].volume_id", `""`, "volume")},
		{category: "ids", name: "mount_volume_id_blank", platform: fly, config: box(fly, mount("  ", "/data")),
			want: emptyID("volume_mount[0].volume_id", `"  "`, "volume")},
		{category: "ids", name: "sandbox_template_id", platform: daytona, config: "resource \"sbx_sandbox\" \"s\" {\n  template_id = \"\"\n}\n",
			want: emptyID("template_id", `""`, "template")},
		{category: "ids", name: "sandbox_from_snapshot_id", platform: modal, config: "resource \"sbx_sandbox\" \"s\" {\n  from_snapshot_id = \"\"\n}\n",
			want: emptyID("from_snapshot_id", `""`, "snapshot")},
		{category: "ids", name: "volume_from_snapshot_id", platform: fly, config: vol("name             = \"restored\"\nfrom_snapshot_id = \"\""),
			want: emptyID("from_snapshot_id", `""`, "snapshot")},
		{category: "ids", name: "snapshot_sandbox_id", platform: e2b, config: snap(`sandbox_id = ""`),
			want: emptyID("sandbox_id", `""`, "sandbox")},
		{category: "ids", name: "snapshot_volume_id", platform: docker, config: snap(`volume_id = " "`),
			want: emptyID("volume_id", `" "`, "volume")},
		{category: "ids", name: "snapshots_filter_volume_id", platform: modal, config: "data \"sbx_snapshots\" \"x\" {\n  volume_id = \"\"\n}\n",
			want: emptyID("volume_id", `""`, "volume")},
		{category: "ids", name: "template_lookup_id", platform: docker, config: "data \"sbx_template\" \"x\" {\n  id = \"\"\n}\n",
			want: emptyID("id", `""`, "template")},
		{category: "ids", name: "volume_lookup_id", platform: daytona, config: "data \"sbx_volume\" \"x\" {\n  id = \"\"\n}\n",
			want: emptyID("id", `""`, "volume")},

		// Network egress entries.
		{category: "network", name: "e2b_allow_out_bad_cidr", platform: e2b,
			config: box(e2b, "network {\n  internet  = false\n  allow_out = [\"10.0.0.0/33\"]\n}"),
			want:   w(`allow_out entry "10.0.0.0/33" is not a valid IP address, CIDR block or host name: /33 is not a prefix length of that address.`)},
		{category: "network", name: "e2b_allow_out_bad_address", platform: e2b,
			config: box(e2b, "network {\n  internet  = true\n  allow_out = [\"10.0.0.1\", \"999.1.1.1\"]\n}"),
			want:   w(`allow_out entry "999.1.1.1" is not a valid IP address, CIDR block or host name: it is not an IP address`)},

		// Data-source filters.
		{category: "filters", name: "snapshots_bad_regex", platform: e2b,
			config: "data \"sbx_snapshots\" \"x\" {\n  name_regex = \"([\"\n}\n",
			want:   w(`name_regex = "([" is not a valid Go (RE2) regular expression`, "https://pkg.go.dev/regexp/syntax")},
		{category: "filters", name: "snapshot_bad_regex", platform: modal,
			config: "data \"sbx_snapshot\" \"x\" {\n  name_regex = \"a{2,1}\"\n}\n",
			want:   w(`name_regex = "a{2,1}" is not a valid Go (RE2) regular expression`)},
		{category: "filters", name: "snapshot_id_and_name", platform: daytona,
			config: "data \"sbx_snapshot\" \"x\" {\n  id   = \"snap-1\"\n  name = \"nightly\"\n}\n",
			want:   w("These attributes cannot be configured together: [id,name]")},
		{category: "filters", name: "volume_id_and_name", platform: e2b,
			config: "data \"sbx_volume\" \"x\" {\n  id   = \"vol-1\"\n  name = \"work\"\n}\n",
			want:   w("Exactly one of these attributes must be configured: [id,name]")},
		{category: "filters", name: "template_neither", platform: modal,
			config: "data \"sbx_template\" \"x\" {\n}\n",
			want:   w("Exactly one of these attributes must be configured: [id,name]")},
		{category: "filters", name: "daytona_by_sandbox", platform: daytona,
			config: "data \"sbx_snapshots\" \"x\" {\n  sandbox_id = \"sb-1\"\n}\n",
			want:   w(`sandbox_id = "sb-1": daytona does not record which sandbox or volume a snapshot was taken of`, "Find the snapshot by name or name_regex instead")},
		{category: "filters", name: "e2b_most_recent", platform: e2b,
			config: "data \"sbx_snapshot\" \"x\" {\n  name_regex  = \"^nightly-\"\n  most_recent = true\n}\n",
			want:   w("most_recent = true: e2b does not report when a snapshot was made", "Remove most_recent and narrow the filters")},
		{category: "filters", name: "fly_by_name", platform: fly,
			config: "data \"sbx_snapshot\" \"x\" {\n  name = \"nightly\"\n}\n",
			want:   w("name is not supported on fly", "Select snapshots by their source (volume_id or sandbox_id) instead.")},
		{category: "filters", name: "sandboxes_bad_status", platform: modal,
			config: "data \"sbx_sandboxes\" \"x\" {\n  status = \"sleeping\"\n}\n",
			want:   w(`Attribute status value must be one of: ["running" "paused" "stopped" "archived" "starting" "stopping" "failed" "unknown"], got: "sleeping"`)},

		// The do-nothing platform: every attribute its table does not
		// accept is refused at plan time, as on any platform.
		{category: "nothing", name: "paused", platform: nothing, config: box(nothing, `state = "paused"`),
			want: w(`state = "paused" is not supported on nothing: state must be one of "running"`)},
		{category: "nothing", name: "two_volumes", platform: nothing, config: box(nothing, mount("vol-1", "/a")+"\n"+mount("vol-2", "/b")),
			want: w("volume_mount: 2 blocks are above the maximum of 1 on nothing. Keep 1 or fewer.")},
		{category: "nothing", name: "read_only", platform: nothing, config: box(nothing, mount("vol-1", "/a", "read_only = true")),
			want: w("volume_mount[0].read_only = true is not supported on nothing: volume_mount[0].read_only must be one of false")},
		{category: "nothing", name: "volume_size", platform: nothing, config: vol("name    = \"sized\"\nsize_gb = 10"),
			want: w("size_gb = 10 is not supported on nothing")},
		{category: "nothing", name: "dockerfile", platform: nothing, config: dockerfile("build", "FROM alpine:3.20\n"),
			want: w("dockerfile = (a Dockerfile) is not supported on nothing")},

		// Provider blocks.
		{category: "provider", name: "two_platforms", platform: e2b, provider: []string{`fly { app = "x" }`},
			config: vol(`name = "two"`), want: w("The provider block has both e2b and fly; give exactly one platform block (none means docker).")},
		{category: "provider", name: "max_retries_docker", platform: docker, provider: []string{"max_retries = 3"},
			config: vol(`name = "retries"`), want: w("max_retries is not supported on docker", "applies to the REST platforms (e2b, daytona, fly)", "Remove max_retries")},
		{category: "provider", name: "max_retries_modal", platform: modal, provider: []string{"max_retries = 3"},
			config: vol(`name = "retries"`), want: w("max_retries is not supported on modal", "applies to the REST platforms (e2b, daytona, fly)", "Remove max_retries")},
		{category: "provider", name: "max_retries_negative", platform: e2b, provider: []string{"max_retries = -1"},
			config: vol(`name = "retries"`), want: w("Attribute max_retries value must be between 0 and 20, got: -1")},
		{category: "provider", name: "bad_docker_host", platform: docker, inner: []string{`host = "ftp://build-host"`},
			config: vol(`name = "host"`), want: w(`docker.host = "ftp://build-host" uses the scheme "ftp://", which is not supported: use unix://`, "tcp://", "ssh://")},
		{category: "provider", name: "bad_tier", platform: e2b, inner: []string{`tier = "enterprise"`},
			config: vol(`name = "tier"`), want: w(`Attribute e2b.tier value must be one of: ["base" "pro"], got: "enterprise"`)},
		{category: "provider", name: "modal_bad_throttle_wait", platform: modal, inner: []string{`max_throttle_wait = "forever"`},
			config: vol(`name = "throttle"`), want: w(`modal.max_throttle_wait = "forever" is not a duration (such as "30s" or "5m").`)},
		{category: "provider", name: "fly_missing_app", platform: fly, block: "  fly {\n    api_token = \"" + flyToken + "\"\n    api_url   = \"http://127.0.0.1:9\"\n  }\n",
			config: vol(`name = "noapp"`), want: w("No Fly.io app", "Set fly { app = ... } or the FLY_APP environment variable.")},

		// Retention overrides.
		{category: "retention", name: "unknown_key", platform: e2b, provider: []string{"retention {\n    paused_sandboxes = \"30d\"\n  }"},
			config: vol(`name = "ret"`), want: w(`An argument named "paused_sandboxes" is not expected here. Did you mean "paused_sandbox"?`)},
		{category: "retention", name: "bad_duration", platform: daytona, provider: []string{"retention {\n    paused_sandbox = \"30 days\"\n  }"},
			config: vol(`name = "ret"`), want: w(`retention.paused_sandbox = "30 days": not a duration; use a duration such as "72h", "90m" or "30d".`)},
		{category: "retention", name: "negative_warn_before", platform: fly, provider: []string{"retention {\n    warn_before = \"-1h\"\n  }"},
			config: vol(`name = "ret"`), want: w(`retention.warn_before = "-1h": must not be negative; use a duration such as "72h", or "0" for none.`)},
		{category: "retention", name: "negative_override", platform: modal, provider: []string{"retention {\n    memory_snapshot = \"-7d\"\n  }"},
			config: vol(`name = "ret"`), want: w(`retention.memory_snapshot = "-7d": must not be negative; use a duration such as "72h", or "0" for none.`)},

		// Import ids.
		{category: "import", name: "empty_id_volume", platform: e2b, config: vol(`name = "imp"`),
			importAddr: "sbx_volume.v", want: w("Cannot import volume", "The import gives no id. Give the id of the existing volume")},
		{category: "import", name: "empty_id_sandbox", platform: daytona, config: box(daytona, ""),
			importAddr: "sbx_sandbox.s", want: w("Cannot import sandbox", "The import gives no id")},
		{category: "import", name: "empty_id_template", platform: fly, config: tpl("name  = \"imp\"\nimage = \"alpine:3.20\""),
			importAddr: "sbx_template.t", want: w("Cannot import template", "The import gives no id")},
		{category: "import", name: "empty_id_snapshot", platform: modal, config: snap("sandbox_id = \"sb-1\"\nttl = \"1h\""),
			importAddr: "sbx_snapshot.n", want: w("Cannot import snapshot", "The import gives no id")},
		{category: "import", name: "e2b_sandbox_missing", platform: e2b, config: box(e2b, ""),
			importAddr: "sbx_sandbox.s", importID: "no-such-box", want: w("no-such-box")},
		{category: "import", name: "e2b_template_missing", platform: e2b, config: tpl("name  = \"imp\"\nimage = \"alpine:3.20\""),
			importAddr: "sbx_template.t", importID: "no-such-template", want: w("no-such-template")},
		{category: "import", name: "daytona_volume_missing", platform: daytona, config: vol(`name = "imp"`),
			importAddr: "sbx_volume.v", importID: "no-such-volume", want: w("no-such-volume")},
		{category: "import", name: "fly_snapshot_missing", platform: fly, config: snap(`volume_id = "vol_1"`),
			importAddr: "sbx_snapshot.n", importID: "m_not_a_snapshot", want: w("Cannot import snapshot m_not_a_snapshot", `snapshot "m_not_a_snapshot" not found`)},
		{category: "import", name: "modal_snapshot_missing", platform: modal, config: snap("sandbox_id = \"sb-1\"\nttl = \"1h\""),
			importAddr: "sbx_snapshot.n", importID: "not-a-snapshot", want: w("not-a-snapshot")},
		{category: "import", name: "modal_sandbox_is_an_image", platform: modal, config: box(modal, ""),
			importAddr: "sbx_sandbox.s", importID: "im-zyxwvutsrqponmlkjihgfe", want: w("im-zyxwvutsrqponmlkjihgfe")},
		{category: "import", name: "docker_snapshot_is_a_plain_image", platform: docker, engine: true, config: snap(`sandbox_id = "c1"`),
			importAddr: "sbx_snapshot.n", setup: plainImage,
			want: w("Cannot import snapshot {id}", `"{id}" is not a snapshot made by this provider: it is image {id}`, "which the provider did not make")},
		{category: "import", name: "docker_template_missing", platform: docker, engine: true, config: tpl("name  = \"imp\"\nimage = \"alpine:3.20\""),
			importAddr: "sbx_template.t", importID: "sbx/badinput-absent:latest", want: w("sbx/badinput-absent:latest")},
		{category: "import", name: "docker_sandbox_missing", platform: docker, engine: true, config: box(docker, ""),
			importAddr: "sbx_sandbox.s", importID: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
			want: w("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef")},
		{category: "import", name: "docker_volume_missing", platform: docker, engine: true, config: vol(`name = "imp"`),
			importAddr: "sbx_volume.v", importID: "sbx-badinput-no-such-volume", want: w("sbx-badinput-no-such-volume")},
	}
}

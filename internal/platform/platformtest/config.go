package platformtest

import (
	"fmt"
	"strings"

	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

// run is one scenario's configuration builder: a unique name prefix, so
// scenarios and parallel test runs never meet on the platform.
//
// The name is short and plain so that every name the suite derives from it
// is valid on every platform: the kit's prefix ("tf-acc-", the live kit's
// "sbx-live-") and ten random lowercase letters and digits. Sandbox, template and snapshot names use it as it is (with "-" and
// a suffix such as "-restored": at most 63 characters, the sandbox rule);
// volume names use volumeName, with underscores, as Fly's volume names are
// ^[a-z0-9_]{1,30}$ (Docker, E2B and Daytona accept underscores too).
type run struct {
	h    harness
	name string
}

func newRun(h harness) run {
	prefix := h.NamePrefix
	if prefix == "" {
		prefix = defaultNamePrefix
	}
	return run{h: h, name: prefix + sdkacctest.RandStringFromCharSet(10, "abcdefghijklmnopqrstuvwxyz0123456789")}
}

// defaultNamePrefix starts the names of a run on a kit with no prefix of
// its own (NamePrefixer).
const defaultNamePrefix = "tf-acc-"

// volumeName is the name of the run's volume with this label: the run's name
// with underscores for dashes, then "_" and the label ("tf_acc_<10>_restored"
// is 26 characters, within Fly's 30).
func (r run) volumeName(label string) string {
	return strings.ReplaceAll(r.name+"_"+label, "-", "_")
}

// config joins the provider block and the given blocks.
func (r run) config(blocks ...string) string {
	return r.h.ProviderConfig + "\n" + strings.Join(blocks, "\n")
}

func (r run) template() string {
	return fmt.Sprintf("resource \"sbx_template\" \"t\" {\n%s\n}\n", r.h.TemplateConfig(r.name+"-tpl"))
}

// volume is a volume labelled with the run's name where volumes carry
// labels (VolumeLabels); extra lines go into its body.
func (r run) volume(label string, extra ...string) string {
	labels := ""
	if r.h.Capabilities.Accepts(platform.AttrVolumeLabels) {
		labels = fmt.Sprintf("  labels = { suite = %q }", r.name)
	}
	return fmt.Sprintf(`resource "sbx_volume" %q {
  name   = %q
%s
%s
}
`, label, r.volumeName(label), labels, strings.Join(extra, "\n"))
}

// snapshotLabels is the labels line for a snapshot (HCL map body, e.g.
// `kept = "yes"`) where snapshots carry labels (SnapshotLabels), else "":
// the provider refuses labels a platform cannot store at plan time.
func (r run) snapshotLabels(body string) string {
	if !r.h.Capabilities.Accepts(platform.AttrSnapshotLabels) {
		return ""
	}
	return "  labels = { " + body + " }"
}

// sandbox is a box from the template; extra lines go into its body.
func (r run) sandbox(label string, extra ...string) string {
	return fmt.Sprintf(`resource "sbx_sandbox" %q {
  name        = "%s-%s"
  template_id = sbx_template.t.id
  labels      = { suite = %q }
%s
}
`, label, r.name, label, r.name, strings.Join(extra, "\n"))
}

// snapshotOf is a snapshot of the object at source ("sbx_sandbox.x" or
// "sbx_volume.x"); extra lines go into its body.
func (r run) snapshotOf(label, source string, extra ...string) string {
	attr := "volume_id"
	if strings.HasPrefix(source, "sbx_sandbox.") {
		attr = "sandbox_id"
	}
	// No include_memory: every platform plans its natural kind, so the same
	// HCL snapshots everywhere (sandboxSnapshotKind says which it is). A
	// name only where snapshots have one (SnapshotNames): elsewhere it is a
	// plan-time error.
	name := ""
	if r.h.Capabilities.SnapshotNames {
		name = fmt.Sprintf("  name = \"%s-%s\"", r.name, label)
	}
	return fmt.Sprintf(`resource "sbx_snapshot" %q {
  %s = %s.id
%s
%s
}
`, label, attr, source, name, strings.Join(extra, "\n"))
}

// agentFiles is the env line that makes the agent write path=content at start.
func agentFiles(path, content string) string {
	return fmt.Sprintf("  env = { AGENT_FILES = %q }", path+"="+content)
}

// sandboxSnapshotKind is the kind a sandbox snapshot has on this platform.
func (r run) sandboxSnapshotKind() string {
	if r.h.Capabilities.AcceptsValue(platform.AttrSnapshotIncludeMemory, "false") {
		return "filesystem"
	}
	return "memory"
}

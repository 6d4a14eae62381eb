package crashtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"

	sdkacctest "github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/platformtest/kits"
)

// boxes is how many sandboxes (each with a volume of its own) the
// interrupted apply creates, half of them at a time (applyArgs): when the
// signal lands, some creates of the kind have answered, some are in flight
// and some have not started, the three cases a recovery meets. More boxes
// repeat those cases and cost terraform's CPU per object in every apply,
// plan and destroy of every run.
const boxes = 10

// applyArgs are the flags of every apply: boxes/2 creates at a time.
var applyArgs = []string{"-auto-approve", "-input=false", "-no-color", fmt.Sprintf("-parallelism=%d", boxes/2)}

// configuration is the run's template, its volumes and named sandboxes,
// each mounting its own volume. The volumes are named <prefix>_<index>:
// underscores, which every platform accepts in volume names (Fly:
// ^[a-z0-9_]{1,30}$).
func configuration(s *site, prefix string) string {
	return s.provider() + "\n" + s.template() + fmt.Sprintf(`
resource "sbx_volume" "v" {
  count = %[1]d
  name  = "%[2]s_${count.index}"
}

resource "sbx_sandbox" "box" {
  count       = %[1]d
  name        = "%[3]s-${count.index}"
  template_id = sbx_template.t.id

  volume_mount {
    volume_id = sbx_volume.v[count.index].id
    path      = "/data"
  }
}
`, boxes, prefix, strings.ReplaceAll(prefix, "_", "-"))
}

// TestCrashSafeApply interrupts an apply that creates a template, 10
// volumes and 10 sandboxes each mounting one of them, by SIGINT and by
// SIGKILL of terraform, while volume creates (or, in the other runs,
// sandbox creates) are in flight: their answers held back, a few lost
// outright. It then applies again, on Docker and on every platform's fake.
// Afterwards nothing exists on the platform that the state does not
// record, and nothing was made twice: every object the apply lost track of
// was found again by its create token, or a message named it (its create
// token with the orphans command, or the terraform import command with its
// id) and the test did what the message says; the orphans command listed
// exactly the objects the state lost. The plan is then empty, destroy
// leaves the platform empty of the run's objects, and another owner's
// volume made beside them is still there. One SIGKILL per platform lands in
// the middle of a state write (crash.tornState): the apply resumes from
// terraform.tfstate.backup, as a user's would.
func TestCrashSafeApply(t *testing.T) {
	tf := acctest.RequireTerraform(t)
	bin, env := acctest.ProviderBinary(t)
	// The runs spend their time waiting on held-back answers and on
	// terraform, not computing: they run concurrentRuns at a time whatever
	// go test's -parallel (GOMAXPROCS by default).
	var wg sync.WaitGroup
	slots := make(chan struct{}, concurrentRuns)
	for _, e := range kits.All() {
		for _, during := range []string{"volume", "sandbox"} {
			name := map[string]string{"volume": "during-volume-creates", "sandbox": "during-sandbox-creates"}[during]
			for _, c := range crashes {
				if c.tornState && during != "sandbox" {
					continue // one such run per platform is enough
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					slots <- struct{}{}
					defer func() { <-slots }()
					t.Run(e.Kit.Name()+"/"+name+"/"+c.name(), func(t *testing.T) {
						crashScenario(t, tf, bin, env, e.Kit, during, c)
					})
				}()
			}
		}
	}
	wg.Wait()
}

// concurrentRuns is how many runs go on at once.
const concurrentRuns = 6

// crash is how an apply ends early.
type crash struct {
	// sig is the signal terraform gets; 0: none, terraform ends by itself.
	sig syscall.Signal
	// tornState: a write of terraform's local state is cut in the middle
	// (the kernel cuts it, interruption.fileSizeLimit), so
	// terraform.tfstate is left torn beside terraform.tfstate.backup,
	// which holds the state the apply started from: with SIGKILL,
	// terraform is then killed, as one killed in the write would be;
	// without a signal it halts and ends by itself, as on a full disk,
	// and prints what its creates in flight came to. The user restores
	// the backup and applies again. A SIGKILL without it lands while the
	// state file is whole.
	tornState bool
}

var crashes = []crash{{sig: syscall.SIGINT}, {sig: syscall.SIGKILL}, {sig: syscall.SIGKILL, tornState: true}, {tornState: true}}

func (c crash) name() string {
	switch {
	case c.sig == syscall.SIGINT:
		return "SIGINT"
	case c.sig == syscall.SIGKILL && c.tornState:
		return "SIGKILL-writing-state"
	case c.sig == syscall.SIGKILL:
		return "SIGKILL"
	}
	return "disk-full-writing-state"
}

// crashScenario is one run: c's signal is sent to terraform once the
// platform holds three objects of the kind during ("volume": while the
// volumes are being made; "sandbox": while the boxes are, the volumes made).
func crashScenario(t *testing.T, tf, bin string, env []string, kit platformtest.Kit, during string, c crash) {
	sig := c.sig
	sfx := sdkacctest.RandStringFromCharSet(6, "abcdefghijklmnopqrstuvwxyz0123456789")
	owner, prefix := "crash-"+sfx, "crash_"+sfx
	s := start(t, kit, owner)
	w := &workdir{t: t, tf: tf, bin: bin, dir: t.TempDir(), env: append(slices.Clone(env), s.Env...)}
	w.write("main.tf", "terraform {\n  required_providers {\n    sbx = { source = \"sbxhq/sbx\" }\n  }\n}\n\n"+configuration(s, prefix))
	destroyed := false
	t.Cleanup(func() {
		// A real engine keeps what a failed run left (a fake ends with
		// the test): destroy it, and remove the run owner's orphans.
		if destroyed {
			return
		}
		w.unlock()
		if out, code := w.terraform("destroy", "-auto-approve", "-input=false", "-no-color"); code != 0 {
			t.Logf("cleanup: terraform destroy: exit %d\n%s", code, out)
		}
		if out, code := w.orphansOf(s, "--platform", s.Name, "--owner", owner, "--state", filepath.Join(w.dir, "terraform.tfstate"), "--all-states", "--delete"); code == 1 {
			t.Logf("cleanup: orphans --delete: exit %d\n%s", code, out)
		}
	})
	// Another owner's volume on the same platform, carrying the
	// provider's marks where the platform keeps labels: no apply, import
	// or orphans --delete of the run may touch it.
	s.foreign = s.OutOfBand.Make(t, platformtest.Foreign{Kind: platformtest.KindVolume, Name: prefix + "_other",
		Labels: platform.NewMarks("other-" + sfx).Labels()})

	// 1. The apply, interrupted once a few objects of the kind exist.
	stateFile := filepath.Join(w.dir, "terraform.tfstate")
	in := interruption{sig: sig, ready: func() bool { return count(s.objects(t), during) >= 3 }}
	if sig == syscall.SIGKILL {
		in.whileStopped = func() bool { return stateWhole(stateFile) }
	}
	var prior []stateResource
	if c.tornState {
		prior = w.applyPrior()
		info, err := os.Stat(stateFile)
		if err != nil {
			t.Fatal(err)
		}
		// A box's resource adds far more than 64 bytes: the first state
		// write with a box in it is cut.
		in.fileSizeLimit = info.Size() + 64
		in.ready = func() bool { return stateTorn(stateFile) }
		in.whileStopped = func() bool { return stateTorn(stateFile) }
		in.mayEnd = true // terraform halts on the failed write; it ends once its creates in flight do
		if sig == 0 {
			in.whileStopped = nil
		}
	}
	s.slow(t)
	first := w.interrupted(in, applyArgs...)
	if c.tornState {
		t.Logf("after %s: the platform holds %d sandboxes and %d volumes; terraform.tfstate is torn", c.name(), count(s.objects(t), "sandbox"), count(s.objects(t), "volume"))
	} else {
		t.Logf("after %s: the platform holds %d sandboxes and %d volumes; the state %d resources",
			c.name(), count(s.objects(t), "sandbox"), count(s.objects(t), "volume"), len(w.state()))
	}
	if sig != syscall.SIGINT {
		w.unlock()
	}
	if c.tornState {
		w.restoreBackup(s, prior)
	}
	checkLookupsFinished(t, normalize(first))
	// What names an object the state lost is a message of an apply. After
	// a torn write the first apply's output is not one: it may hold the
	// whole state (terraform prints it when it can write neither
	// terraform.tfstate nor errored.tfstate), every create token in it,
	// and the user restored the backup instead; the applies from the
	// backup must name what it lacks.
	var outputs []string
	if !c.tornState {
		outputs = append(outputs, normalize(first))
	}

	// 2. Apply again; where a message named an object the state lost,
	// do what it says (import it, or delete it with the orphans command)
	// and apply once more.
	settled := false
	for round := 1; round <= maxApplies && !settled; round++ {
		out, code := w.terraform(append([]string{"apply"}, applyArgs...)...)
		outputs = append(outputs, normalize(out))
		checkLookupsFinished(t, normalize(out))
		untracked := untrackedObjects(s.objects(t), w.state())
		if code == 0 && len(untracked) == 0 {
			settled = true
			break
		}
		w.resolve(s, owner, untracked, strings.Join(outputs, "\n"), code == 0)
	}
	if !settled {
		t.Fatalf("%d applies after the %s did not settle:\n%s", maxApplies, c.name(), diagnostics(strings.Join(outputs, "\n")))
	}

	// 3. The platform holds exactly the state's objects, once each.
	st := w.state()
	objects := s.objects(t)
	checkExactly(t, s, st, objects)

	// 4. The next plan is empty.
	if out, code := w.terraform("plan", "-detailed-exitcode", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("terraform plan -detailed-exitcode after recovering: exit %d, want 0 (empty):\n%s", code, out)
	}

	// 5. Destroy leaves nothing.
	if out, code := w.terraform("destroy", "-auto-approve", "-input=false", "-no-color"); code != 0 {
		t.Fatalf("terraform destroy: exit %d:\n%s", code, out)
	}
	destroyed = true
	if left := accountable(s.objects(t), nil); len(left) > 0 {
		t.Errorf("after terraform destroy the platform still holds %d objects:\n%s", len(left), describe(left))
	}
	s.checkForeignKept(t)
}

// applyPrior applies the template and the volumes alone, so that the
// state the interrupted apply starts from, and backs up, holds them, and
// returns that state.
func (w *workdir) applyPrior() []stateResource {
	w.t.Helper()
	out, code := w.terraform(append([]string{"apply", "-target=sbx_template.t", "-target=sbx_volume.v"}, applyArgs...)...)
	if code != 0 {
		w.t.Fatalf("terraform apply of the template and the volumes: exit %d\n%s", code, out)
	}
	prior := w.state()
	if len(prior) != 1+boxes {
		w.t.Fatalf("the state after applying the template and the volumes holds %d resources, want %d", len(prior), 1+boxes)
	}
	return prior
}

// restoreBackup does what a user with a torn terraform.tfstate does,
// checking each step: terraform refuses the torn file (and makes
// nothing), terraform.tfstate.backup holds the state the apply started
// from (prior), and it is copied over the torn file.
func (w *workdir) restoreBackup(s *site, prior []stateResource) {
	t := w.t
	t.Helper()
	stateFile := filepath.Join(w.dir, "terraform.tfstate")
	if !stateTorn(stateFile) {
		t.Fatalf("terraform.tfstate is not torn after the killed write")
	}
	if got, want := addresses(w.stateFile(stateFile+".backup")), addresses(prior); !slices.Equal(got, want) {
		t.Fatalf("terraform.tfstate.backup records %v, want the state the apply started from: %v", got, want)
	}
	before := len(s.objects(t))
	out, code := w.terraform(append([]string{"apply"}, applyArgs...)...)
	if code == 0 || !strings.Contains(normalize(out), "could not be parsed") {
		t.Fatalf("terraform apply on the torn state: exit %d, want it refused as a state that could not be parsed:\n%s", code, out)
	}
	if after := len(s.objects(t)); after != before {
		t.Fatalf("terraform apply on the torn state failed, yet the platform went from %d objects to %d", before, after)
	}
	raw, err := os.ReadFile(stateFile + ".backup")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stateFile, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("terraform refused the torn state; restored terraform.tfstate.backup (%d resources) over it", len(prior))
}

// addresses are the "address id" of each resource, sorted.
func addresses(st []stateResource) []string {
	out := make([]string, 0, len(st))
	for _, r := range st {
		out = append(out, r.Address+" "+r.ID)
	}
	sort.Strings(out)
	return out
}

// stateWhole says the local state file at path is a whole state, or
// absent: what a kill leaves when it lands outside a write. An empty file
// is not whole: terraform empties the file before it writes it.
func stateWhole(path string) bool {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return true
	}
	var doc struct {
		Version *int `json:"version"`
	}
	return err == nil && json.Unmarshal(raw, &doc) == nil && doc.Version != nil
}

// stateTorn says the local state file at path holds the start of a state
// and not all of it.
func stateTorn(path string) bool {
	raw, err := os.ReadFile(path)
	return err == nil && len(raw) > 0 && !json.Valid(raw)
}

func count(objects []platformtest.Object, kind string) int {
	n := 0
	for _, o := range objects {
		if o.Kind == kind {
			n++
		}
	}
	return n
}

func describe(objects []platformtest.Object) string {
	lines := make([]string, 0, len(objects))
	for _, o := range objects {
		lines = append(lines, "  "+o.String())
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// kindOf maps a resource type to the kind of object it records.
func kindOf(resourceType string) string {
	switch resourceType {
	case "sbx_sandbox":
		return "sandbox"
	case "sbx_volume":
		return "volume"
	case "sbx_template":
		return "template"
	}
	return ""
}

// accountable are the objects the test holds the recovery to: all but the
// templates that carry neither the provider's marks nor a name (Modal
// Images: Modal keeps no labels and no name on an image) and that no state
// records. Nothing tells such an image of this run from another's, no
// message can name it and the orphans command cannot list it: an apply
// after a lost state builds the template again and leaves the earlier
// image unused. A named template (E2B's) is named by the messages.
func accountable(objects []platformtest.Object, st []stateResource) []platformtest.Object {
	held := map[string]bool{}
	for _, r := range st {
		held[r.ID] = true
	}
	var out []platformtest.Object
	for _, o := range objects {
		if o.Kind == platformtest.KindTemplate && !labelled(o) && o.Name == "" && !held[o.ID] {
			continue
		}
		out = append(out, o)
	}
	return out
}

// untrackedObjects are the accountable objects the platform holds that no
// state resource records.
func untrackedObjects(objects []platformtest.Object, st []stateResource) []platformtest.Object {
	held := map[string]bool{}
	for _, r := range st {
		if k := kindOf(r.Type); k != "" {
			held[k+" "+r.ID] = true
		}
	}
	var out []platformtest.Object
	for _, o := range accountable(objects, st) {
		if !held[o.Kind+" "+o.ID] {
			out = append(out, o)
		}
	}
	return out
}

// lostAnswer is the start of a lostcreate.Error; stopped is what it says
// when the lookups were cut short (by the interrupt).
const (
	lostAnswer = "the answer was lost, so the"
	stopped    = "Looking for it stopped after"
)

// checkLookupsFinished fails the test when a create whose answer was lost
// gave up after its lookups ran their course: the fakes list new objects at
// once, so a lookup that was not cut short by the interrupt must find the
// object. (Run with the lookups disabled, this is what fails.)
func checkLookupsFinished(t *testing.T, output string) {
	t.Helper()
	for _, msg := range strings.Split(output, lostAnswer)[1:] {
		// The message's own sentence about the lookups comes right after.
		head := msg
		if i := strings.Index(head, "The create was not sent again"); i >= 0 {
			head = head[:i]
		}
		if !strings.Contains(head, stopped) {
			t.Errorf("a create's answer was lost and its object was not found although the platform lists it at once and the lookups were not interrupted:\n...%s%s", lostAnswer, cut(msg, 500))
		}
	}
}

// cut is s, cut to n bytes.
func cut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// normalize joins a command's output into one line: terraform wraps its
// diagnostics, so a sentence or a command may span lines.
func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }

var (
	// importCommand is `terraform import <address> <id>` in a message;
	// the address may be a placeholder, as the diagnostic's "with" line
	// names the resource.
	importCommand = regexp.MustCompile("terraform import (<this resource's address>|[^\\s`'\"]+) ['\"`]?([^\\s`'\"]+)")
	withAddress   = regexp.MustCompile(`with ([^\s,]+),`)
)

// importCommands maps the object ids the messages give import commands for
// to the resource addresses they name.
func importCommands(messages string) map[string]string {
	imports := map[string]string{}
	for _, diag := range strings.Split(messages, "Error: ")[1:] {
		addr := ""
		if m := withAddress.FindStringSubmatch(diag); m != nil {
			addr = m[1]
		}
		for _, m := range importCommand.FindAllStringSubmatch(diag, -1) {
			a, id := m[1], strings.TrimRight(m[2], ".,;:)")
			if strings.HasPrefix(id, "<") {
				continue // a placeholder: "terraform import <address> <sandbox id>"
			}
			if strings.HasPrefix(a, "<") {
				a = addr
			}
			if a != "" {
				imports[id] = a
			}
		}
	}
	return imports
}

// importsFile holds the import blocks of the objects the messages name by
// an import command, for the next apply.
const importsFile = "imports.tf"

// maxApplies bounds the applies after the interrupt: each may stop at
// objects a message names (the template, then volumes, then boxes).
const maxApplies = 5

// resolve does what the messages of the applies say about objects the
// state does not hold, as a user would, after an apply that failed
// (complete false) or left objects untracked.
//
// An object is named when a message gives the terraform import command for
// its id (it is then imported), or its create token (then the orphans
// command must list it, and once every untracked object is named it is
// deleted with the orphans command's --delete, as the message says). The
// orphans command must list exactly the untracked objects of the kinds that
// carry the provider's marks. The test fails for an object no message named
// once an apply completes (an orphan nobody was told about: the apply made
// its resource's object a second time), and when nothing a message says
// can be done.
func (w *workdir) resolve(s *site, owner string, untracked []platformtest.Object, messages string, complete bool) {
	t := w.t
	t.Helper()
	imports := importCommands(messages) // object id → address
	var unnamed, named []platformtest.Object
	for _, o := range untracked {
		_, byImport := imports[o.ID]
		if byImport || (tokenOf(o) != "" && strings.Contains(messages, tokenOf(o))) {
			named = append(named, o)
		} else {
			unnamed = append(unnamed, o)
		}
	}
	if complete && len(unnamed) > 0 {
		t.Fatalf("orphans: the apply completed, and the platform holds %d objects that the state does not record and that no message named "+
			"by its id (an import command) or its create token:\n%s\n"+
			"%d of them share their name with an object the state records: made twice "+
			"(the platform holds %d sandboxes and %d volumes for %d of each)\nerrors of the applies:\n%s",
			len(unnamed), describe(unnamed), madeTwice(unnamed, s.objects(t)), count(s.objects(t), "sandbox"), count(s.objects(t), "volume"), boxes, diagnostics(messages))
	}
	if len(named) > 0 {
		t.Logf("objects the state lost, named by the messages:\n%s", describe(named))
	}

	// The orphans command lists exactly the untracked objects it can check.
	var want []string
	for _, o := range untracked {
		if labelled(o) {
			want = append(want, o.Kind+" "+o.ID)
		}
	}
	sort.Strings(want)
	got, code := w.orphanIDs(s, owner, false)
	if !slices.Equal(got, want) || (len(want) > 0) != (code == 2) {
		t.Fatalf("terraform-provider-sbx orphans --owner %s: exit %d listing %v, want exactly the untracked %v", owner, code, got, want)
	}

	// Import what an import command names (the template too), where the
	// resource is not in state yet and the object is in no resource. An
	// earlier apply's command may name an object a later apply replaced
	// (a box imported before its template was: the template's create
	// planned the box's replacement): the platform no longer holds it,
	// and a user would pass over it as the test does.
	st := w.state()
	inState := map[string]bool{}
	for _, r := range st {
		inState[r.Address], inState["id "+r.ID] = true, true
	}
	held := map[string]bool{}
	for _, o := range untracked {
		held[o.ID] = true
	}
	//
	// The imports are import blocks the next apply carries out, all at
	// once, as a user with dozens of import commands to run would write
	// them: one terraform import each took the CLI about a second of CPU.
	did := false
	var blocks []string
	pending := map[string]bool{}
	for _, id := range slices.Sorted(maps.Keys(imports)) {
		addr := imports[id]
		if inState[addr] || inState["id "+id] || !held[id] {
			continue
		}
		blocks = append(blocks, fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", addr, id))
		pending[id] = true
		t.Logf("importing %s as %s, as the message said", id, addr)
		did = true
	}
	w.write(importsFile, strings.Join(blocks, "\n"))

	// Delete what is named by its create token, once every untracked
	// object is named (or being imported): --delete removes every orphan
	// of the owner.
	var left []platformtest.Object
	for _, o := range untrackedObjects(s.objects(t), w.state()) {
		if !pending[o.ID] {
			left = append(left, o)
		}
	}
	var byToken []string
	allNamed := true
	for _, o := range left {
		if tokenOf(o) != "" && strings.Contains(messages, tokenOf(o)) && labelled(o) {
			byToken = append(byToken, o.Kind+" "+o.ID)
		} else {
			allNamed = false
		}
	}
	sort.Strings(byToken)
	if len(byToken) > 0 && allNamed {
		got, code := w.orphanIDs(s, owner, true)
		if !slices.Equal(got, byToken) || code != 2 {
			t.Fatalf("orphans --delete: exit %d removing %v, want exactly %v", code, got, byToken)
		}
		t.Logf("deleted with orphans --delete, as the message said: %v", byToken)
		did = true
	}
	if !did {
		t.Fatalf("the apply failed or left objects the state does not record, and no message says what to do "+
			"(no import command for a resource not in state, no create token of an object left):\nuntracked:\n%s\nerrors of the applies:\n%s",
			describe(left), diagnostics(messages))
	}
}

// madeTwice counts the objects of lost that share their kind and name with
// another object the platform holds.
func madeTwice(lost, all []platformtest.Object) int {
	n := 0
	for _, o := range lost {
		for _, other := range all {
			if other.ID != o.ID && other.Kind == o.Kind && other.Name == o.Name {
				n++
				break
			}
		}
	}
	return n
}

// diagnostics are the errors in normalized output, one a
// line, each cut to 600 characters.
func diagnostics(messages string) string {
	var out []string
	for _, part := range strings.Split(messages, "Error: ")[1:] {
		if strings.HasPrefix(part, "execution halted") {
			continue // terraform's note on every operation the interrupt stopped
		}
		out = append(out, "  - "+cut(part, 600))
	}
	return strings.Join(out, "\n")
}

// orphanIDs runs the orphans command (with --delete when del) against the
// working directory's state and returns the "kind id" of each orphan it
// reports, sorted, and its exit code.
func (w *workdir) orphanIDs(s *site, owner string, del bool) ([]string, int) {
	w.t.Helper()
	args := []string{"--platform", s.Name, "--owner", owner, "--state", filepath.Join(w.dir, "terraform.tfstate"), "--format", "json"}
	if del {
		args = append(args, "--all-states", "--delete")
	}
	out, code := w.orphansOf(s, args...)
	if code != 0 && code != 2 {
		w.t.Fatalf("terraform-provider-sbx orphans %s: exit %d:\n%s", strings.Join(args, " "), code, out)
	}
	var rep struct {
		Orphans []struct {
			Kind   string `json:"kind"`
			ID     string `json:"id"`
			Result string `json:"result"`
			Error  string `json:"error"`
		} `json:"orphans"`
	}
	if err := json.Unmarshal([]byte(out[:strings.LastIndexByte(out, '}')+1]), &rep); err != nil {
		w.t.Fatalf("orphans report: %v\n%s", err, out)
	}
	ids := make([]string, 0, len(rep.Orphans))
	for _, o := range rep.Orphans {
		if del && o.Error != "" {
			w.t.Errorf("orphans --delete could not remove %s %s: %s", o.Kind, o.ID, o.Error)
		}
		ids = append(ids, o.Kind+" "+o.ID)
	}
	sort.Strings(ids)
	return ids, code
}

// checkExactly asserts the platform holds the state's sandboxes and
// volumes, boxes of each, once each: no object outside the state, no resource
// whose object was made twice, none missing.
func checkExactly(t *testing.T, s *site, st []stateResource, objects []platformtest.Object) {
	t.Helper()
	objects = accountable(objects, st)
	if u := untrackedObjects(objects, st); len(u) > 0 {
		t.Errorf("the platform holds objects no state records:\n%s", describe(u))
	}
	live := map[string]bool{}
	byName := map[string][]platformtest.Object{}
	for _, o := range objects {
		live[o.Kind+" "+o.ID] = true
		byName[o.Kind+" "+o.Name] = append(byName[o.Kind+" "+o.Name], o)
	}
	for key, os := range byName {
		if len(os) > 1 {
			t.Errorf("duplicates: %d objects for %s:\n%s", len(os), key, describe(os))
		}
	}
	perKind := map[string]int{}
	for _, r := range st {
		k := kindOf(r.Type)
		if k == "" {
			continue
		}
		perKind[k]++
		if !live[k+" "+r.ID] {
			if k != "template" || s.templatesHeld() {
				t.Errorf("%s records %s %s, which the platform does not hold", r.Address, k, r.ID)
			}
		}
	}
	for _, k := range []string{"sandbox", "volume"} {
		if perKind[k] != boxes || count(objects, k) != boxes {
			t.Errorf("%ss: %d in state, %d on the platform; want %d of each", k, perKind[k], count(objects, k), boxes)
		}
	}
	if perKind["template"] != 1 || (s.templatesHeld() && count(objects, "template") != 1) {
		t.Errorf("templates: %d in state, %d on the platform; want 1", perKind["template"], count(objects, "template"))
	}
}

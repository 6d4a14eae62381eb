package crashtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/api/types/volume"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/daytona/daytonafake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
	"github.com/sbxhq/terraform-provider-sbx/internal/platforms"
)

// object is a sandbox or volume the platform holds, as the platform (or
// its fake) reports it, not as the provider does.
type object struct {
	Kind  string // "sandbox", "volume" or "template"
	ID    string
	Name  string
	Token string // the create token among its labels; "" where it has none
}

func (o object) String() string {
	s := fmt.Sprintf("%s %s (name %q", o.Kind, o.ID, o.Name)
	if o.Token != "" {
		s += ", create token " + o.Token
	}
	return s + ")"
}

// site is one platform made ready for one run: its provider block, its
// template, how to read what it holds, and how to make its creates slow.
type site struct {
	// real is a platform that outlives the test (Docker), not a fake.
	real     bool
	provider string // the provider block, owner set
	template string // resource "sbx_template" "t"
	// env is added to the environment of the terraform and orphans
	// commands: the platform's credentials for the orphans subcommand.
	env []string
	// orphansPlatform is the orphans subcommand's --platform.
	orphansPlatform string
	// orphansPlatforms, when set, runs the orphans command in the test
	// process with these platforms instead of the binary's: for a
	// platform whose API URL the command cannot take from the environment.
	orphansPlatforms []platform.Definition
	// labelled are the kinds whose objects carry the provider's marks
	// (what orphans can check); the others it reports as unchecked.
	labelled map[string]bool
	// templates says objects lists the run's template too (Docker, E2B
	// and Daytona); elsewhere it is not listed: a Fly template is a record
	// in state only, and Modal images are not looked up by the template's
	// name here.
	templates bool
	// objects lists the run's live sandboxes and volumes (and template).
	objects func(t *testing.T) []object
	// slow makes creates slow (answers held back) and loses the answers
	// of a few of them, for the interrupted apply; fast undoes the delay.
	slow, fast func()
}

// row is a platform the crash tests run on.
type row struct {
	name string
	// setup starts (or connects to) the platform; owner and prefix name
	// the run's objects.
	setup func(t *testing.T, owner, prefix string) *site
}

var rows = []row{
	{"docker", dockerSite},
	{"e2b", e2bSite},
	{"daytona", daytonaSite},
	{"fly", flySite},
	{"modal", modalSite},
}

// createDelay is how long answers to creates are held back during the
// interrupted apply: long enough for the signal to land while creates are
// in flight, short enough for the package to run in a few minutes.
const createDelay = 1500 * time.Millisecond

// lostAnswers is how many create answers each fake loses (the object made,
// the connection dropped) in the interrupted apply: the provider must find
// those objects again by their create tokens.
const lostAnswers = 2

func tokenOf(labels map[string]string) string { return labels[platform.LabelCreateToken] }

func dockerSite(t *testing.T, owner, _ string) *site {
	api := acctest.RequireDocker(t)
	ctx := context.Background()
	ownerFilter := filters.NewArgs(filters.Arg("label", platform.LabelOwner+"="+owner))
	return &site{
		real:            true,
		provider:        fmt.Sprintf("provider \"sbx\" {\n  owner = %q\n}\n", owner),
		template:        fmt.Sprintf("resource \"sbx_template\" \"t\" {\n  name        = %q\n  context_dir = %q\n  dockerfile  = %q\n}\n", owner, acctest.AgentContextDir(t), acctest.AgentDockerfile),
		orphansPlatform: "docker",
		labelled:        map[string]bool{"sandbox": true, "volume": true, "template": true},
		templates:       true,
		objects: func(t *testing.T) []object {
			t.Helper()
			var out []object
			// A template is an image the build labelled; the state
			// records it by its tag.
			imgs, err := api.ImageList(ctx, image.ListOptions{Filters: filters.NewArgs(
				filters.Arg("label", platform.LabelOwner+"="+owner), filters.Arg("label", platform.LabelKind+"=template"))})
			if err != nil {
				t.Fatalf("listing images: %v", err)
			}
			for _, img := range imgs {
				id := img.ID
				for _, tag := range img.RepoTags {
					if tag != "<none>:<none>" {
						id = tag
						break
					}
				}
				out = append(out, object{Kind: "template", ID: id, Name: img.Labels[platform.LabelName], Token: tokenOf(img.Labels)})
			}
			cs, err := api.ContainerList(ctx, container.ListOptions{All: true, Filters: ownerFilter})
			if err != nil {
				t.Fatalf("listing containers: %v", err)
			}
			for _, c := range cs {
				name := ""
				if len(c.Names) > 0 {
					name = strings.TrimPrefix(c.Names[0], "/")
				}
				out = append(out, object{Kind: "sandbox", ID: c.ID, Name: name, Token: tokenOf(c.Labels)})
			}
			vs, err := api.VolumeList(ctx, volume.ListOptions{Filters: ownerFilter})
			if err != nil {
				t.Fatalf("listing volumes: %v", err)
			}
			for _, v := range vs.Volumes {
				out = append(out, object{Kind: "volume", ID: v.Name, Name: v.Name, Token: tokenOf(v.Labels)})
			}
			return out
		},
		// Docker's own creates are slow enough (a container is made,
		// then started) for the signal to land among them.
		slow: func() {}, fast: func() {},
	}
}

const (
	e2bKey     = "crashtest_e2b_key_3a9c"
	daytonaKey = "crashtest_daytona_key_77d1"
	flyToken   = "crashtest_fly_token_0b5e"
	flyApp     = "sbx-crash"
)

func e2bSite(t *testing.T, owner, _ string) *site {
	acctest.RequireTerraform(t)
	fake := e2bfake.New(t, e2bfake.Options{APIKey: e2bKey})
	t.Cleanup(func() { specViolations(t, "E2B", fake.SpecViolations()) })
	proxy := newAnswerDelay(t, fake.URL(), func(method, path string) bool {
		return method == "POST" && (path == "/sandboxes" || path == "/volumes")
	})
	return &site{
		provider: fmt.Sprintf("provider \"sbx\" {\n  owner = %q\n  e2b {\n    api_key = %q\n    api_url = %q\n    tier    = \"pro\"\n  }\n}\n",
			owner, e2bKey, proxy.url()),
		template:        fmt.Sprintf("resource \"sbx_template\" \"t\" {\n  name       = %q\n  dockerfile = \"FROM alpine:3.20\\nRUN echo ok\\n\"\n}\n", owner),
		env:             []string{"E2B_API_KEY=" + e2bKey, "E2B_API_URL=" + fake.URL()},
		orphansPlatform: "e2b",
		templates:       true,
		labelled:        map[string]bool{"sandbox": true},
		objects: func(*testing.T) []object {
			var out []object
			for _, s := range fake.Sandboxes() {
				out = append(out, object{Kind: "sandbox", ID: s.ID, Name: s.Metadata[platform.LabelName], Token: tokenOf(s.Metadata)})
			}
			for _, v := range fake.Volumes() {
				out = append(out, object{Kind: "volume", ID: v.ID, Name: v.Name})
			}
			for _, tpl := range fake.Templates() {
				if tpl.Name == owner || slices.Contains(tpl.Names, owner) {
					out = append(out, object{Kind: "template", ID: tpl.ID, Name: owner})
				}
			}
			return out
		},
		slow: func() {
			proxy.set(createDelay)
			fake.Inject("POST /volumes", e2bfake.Fault{DropAfterHandling: true})
			fake.Inject("POST /sandboxes", e2bfake.Fault{DropAfterHandling: true, Times: lostAnswers})
		},
		fast: func() { proxy.set(0) },
	}
}

func daytonaSite(t *testing.T, owner, _ string) *site {
	acctest.RequireTerraform(t)
	fake := daytonafake.New(t, daytonafake.Options{APIKey: daytonaKey})
	t.Cleanup(func() { specViolations(t, "Daytona", fake.SpecViolations()) })
	proxy := newAnswerDelay(t, fake.URL(), func(method, path string) bool {
		return method == "POST" && (strings.HasSuffix(path, "/sandbox") || strings.HasSuffix(path, "/volumes"))
	})
	return &site{
		provider: fmt.Sprintf("provider \"sbx\" {\n  owner = %q\n  daytona {\n    api_key = %q\n    api_url = %q\n  }\n}\n",
			owner, daytonaKey, proxy.url()),
		template:        fmt.Sprintf("resource \"sbx_template\" \"t\" {\n  name  = %q\n  image = \"python:3.12-slim\"\n}\n", owner),
		env:             []string{"DAYTONA_API_KEY=" + daytonaKey, "DAYTONA_API_URL=" + fake.URL(), "DAYTONA_ORGANIZATION_ID=" + fake.OrganizationID()},
		orphansPlatform: "daytona",
		templates:       true,
		labelled:        map[string]bool{"sandbox": true},
		objects: func(*testing.T) []object {
			var out []object
			for _, s := range fake.Sandboxes() {
				if !s.Destroyed {
					out = append(out, object{Kind: "sandbox", ID: s.ID, Name: s.Name, Token: tokenOf(s.Labels)})
				}
			}
			for _, v := range fake.Volumes() {
				if v.State != "deleted" && v.State != "pending_delete" {
					out = append(out, object{Kind: "volume", ID: v.ID, Name: v.Name})
				}
			}
			for _, snap := range fake.Snapshots() {
				if snap.Name == owner && !snap.Removed {
					out = append(out, object{Kind: "template", ID: snap.ID, Name: snap.Name})
				}
			}
			return out
		},
		slow: func() {
			proxy.set(createDelay)
			fake.Inject("POST /volumes", daytonafake.Fault{DropAfterHandling: true})
			fake.Inject("POST /sandbox", daytonafake.Fault{DropAfterHandling: true, Times: lostAnswers})
		},
		fast: func() { proxy.set(0) },
	}
}

func flySite(t *testing.T, owner, _ string) *site {
	acctest.RequireTerraform(t)
	fake := flyfake.New(t, flyfake.Options{APIToken: flyToken, Apps: []string{flyApp}})
	t.Cleanup(func() { specViolations(t, "Fly", fake.SpecViolations()) })
	proxy := newAnswerDelay(t, fake.URL(), func(method, path string) bool {
		return method == "POST" && (strings.HasSuffix(path, "/apps/"+flyApp+"/machines") || strings.HasSuffix(path, "/apps/"+flyApp+"/volumes"))
	})
	return &site{
		// Every volume is made in the provider block's region, where the
		// machine that mounts it runs.
		provider: fmt.Sprintf("provider \"sbx\" {\n  owner = %q\n  fly {\n    api_token = %q\n    app       = %q\n    api_url   = %q\n    region    = \"iad\"\n  }\n}\n",
			owner, flyToken, flyApp, proxy.url()),
		template:        fmt.Sprintf("resource \"sbx_template\" \"t\" {\n  name  = %q\n  image = \"registry.fly.io/sbx-agent:1.0\"\n}\n", owner),
		env:             []string{"FLY_API_TOKEN=" + flyToken, "FLY_APP=" + flyApp, "FLY_API_URL=" + fake.URL()},
		orphansPlatform: "fly",
		// The fly block's api_url has no environment variable, so the
		// orphans binary can only reach api.machines.dev: the command runs
		// in-process, with api_url read from FLY_API_URL.
		orphansPlatforms: withAPIURLEnv("fly", "FLY_API_URL"),
		labelled:         map[string]bool{"sandbox": true},
		objects: func(*testing.T) []object {
			var out []object
			for _, m := range fake.Machines() {
				if !m.Destroyed {
					out = append(out, object{Kind: "sandbox", ID: m.ID, Name: m.Name, Token: tokenOf(m.Metadata)})
				}
			}
			for _, v := range fake.Volumes() {
				if v.State != flyfake.VolumeDestroyed && v.State != flyfake.VolumeScheduledDestroy {
					out = append(out, object{Kind: "volume", ID: v.ID, Name: v.Name})
				}
			}
			return out
		},
		slow: func() {
			proxy.set(createDelay)
			fake.Inject("POST /apps/{app_name}/volumes", flyfake.Fault{DropAfterHandling: true})
			fake.Inject("POST /apps/{app_name}/machines", flyfake.Fault{DropAfterHandling: true, Times: lostAnswers})
		},
		fast: func() { proxy.set(0) },
	}
}

func modalSite(t *testing.T, owner, prefix string) *site {
	acctest.RequireTerraform(t)
	ws := modalFake.NewWorkspace(t)
	t.Cleanup(func() { specViolations(t, "Modal", ws.Violations()) })
	return &site{
		// The default app: the orphans command has no setting for another
		// (the modal block's app has no environment variable), and looks
		// in the default one.
		provider: fmt.Sprintf("provider \"sbx\" {\n  owner = %q\n  modal {\n    token_id     = %q\n    token_secret = %q\n  }\n}\n",
			owner, ws.TokenID(), ws.TokenSecret()),
		template:        fmt.Sprintf("resource \"sbx_template\" \"t\" {\n  name  = %q\n  image = \"ghcr.io/sbxhq/sbx-agent:1.0\"\n}\n", owner),
		env:             []string{"MODAL_TOKEN_ID=" + ws.TokenID(), "MODAL_TOKEN_SECRET=" + ws.TokenSecret()},
		orphansPlatform: "modal",
		labelled:        map[string]bool{"sandbox": true},
		objects: func(*testing.T) []object {
			var out []object
			for _, s := range ws.Sandboxes() {
				if !s.Finished {
					out = append(out, object{Kind: "sandbox", ID: s.ID, Name: s.Name, Token: tokenOf(s.Tags)})
				}
			}
			// The fake lists volumes by name only; the run's are named
			// volumeName(prefix, i).
			for i := range boxes {
				if v, ok := ws.Volume(volumeName(prefix, i)); ok {
					out = append(out, object{Kind: "volume", ID: v.Name, Name: v.Name})
				}
			}
			return out
		},
		// Modal is gRPC, with no proxy in front: reading a new box's tags
		// (right after the create, before the provider returns it) is
		// throttled instead, so the box exists while the provider waits;
		// volume creates are throttled (before they act), and creates act
		// and lose their answers (the SDK retries them with their
		// idempotency keys).
		slow: func() {
			ws.Throttle("SandboxTagsGet", 3*boxes, createDelay)
			ws.Throttle("VolumeGetOrCreate", boxes/2, createDelay)
			ws.DropAnswer("SandboxCreateV2", lostAnswers)
			ws.DropAnswer("VolumeGetOrCreate", 1)
		},
		fast: func() {
			ws.Throttle("SandboxTagsGet", 0, 0)
			ws.Throttle("VolumeGetOrCreate", 0, 0)
		},
	}
}

// withAPIURLEnv is the provider's platforms with the api_url setting of
// platformName read from env.
func withAPIURLEnv(platformName, env string) []platform.Definition {
	defs := platforms.All()
	for i := range defs {
		if defs[i].Name != platformName {
			continue
		}
		settings := slices.Clone(defs[i].Settings)
		for j := range settings {
			if settings[j].Name == "api_url" {
				settings[j].Env = []string{env}
			}
		}
		defs[i].Settings = settings
	}
	return defs
}

func specViolations(t *testing.T, platformName string, v []string) {
	t.Helper()
	if len(v) > 0 {
		t.Errorf("requests or responses broke %s's spec or protocol:\n%s", platformName, strings.Join(v, "\n"))
	}
}

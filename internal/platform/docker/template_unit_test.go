package docker

import (
	"errors"
	"strings"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
)

func TestBuildLogFailure(t *testing.T) {
	stream := `{"stream":"Step 1/3 : FROM scratch\n"}
{"stream":" ---\u003e \n"}
{"stream":"Step 2/3 : COPY agent /agent\n"}
{"stream":" ---\u003e abc123\n"}
{"stream":"Step 3/3 : COPY missing /x\n"}
{"errorDetail":{"message":"COPY failed: file not found in build context or excluded by .dockerignore: stat missing: file does not exist"},"error":"COPY failed: file not found"}
`
	var log buildLog
	var logged []string
	if err := log.read(strings.NewReader(stream), func(l string) { logged = append(logged, l) }); err != nil {
		t.Fatal(err)
	}
	err := log.err("web")
	if err == nil {
		t.Fatal("no error for a failed build")
	}
	for _, want := range []string{`building template "web" failed at Step 3/3 : COPY missing /x`, "stat missing: file does not exist", "Step 2/3 : COPY agent /agent"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if len(logged) != 5 {
		t.Errorf("logged %d lines, want 5: %q", len(logged), logged)
	}
}

func TestBuildLogSuccess(t *testing.T) {
	// Output split mid-line across messages must still come out as whole lines.
	stream := `{"stream":"Step 1/1 : FR"}{"stream":"OM scratch\n"}{"aux":{"ID":"sha256:feed"}}{"stream":"Successfully built feed\n"}`
	var log buildLog
	var logged []string
	if err := log.read(strings.NewReader(stream), func(l string) { logged = append(logged, l) }); err != nil {
		t.Fatal(err)
	}
	if err := log.err("web"); err != nil {
		t.Fatalf("error for a good build: %v", err)
	}
	if log.imageID != "sha256:feed" {
		t.Errorf("image id = %q", log.imageID)
	}
	if len(logged) != 2 || logged[0] != "Step 1/1 : FROM scratch" {
		t.Errorf("logged %q", logged)
	}
}

func TestBuildLogTailIsBounded(t *testing.T) {
	var log buildLog
	for i := 0; i < 100; i++ {
		log.add(buildMessage{Stream: "line\n"})
	}
	log.add(buildMessage{Error: "boom"})
	if len(log.tail) != buildTailLines {
		t.Errorf("tail holds %d lines, want %d", len(log.tail), buildTailLines)
	}
	if err := log.err("x"); err == nil || !strings.Contains(err.Error(), "before the first step") {
		t.Errorf("error = %v, want it to say the build failed before the first step", err)
	}
}

func TestTemplateIDs(t *testing.T) {
	if got := TemplateID("web"); got != "sbx/web:latest" {
		t.Errorf("TemplateID = %q", got)
	}
	for id, want := range map[string]string{"sbx/web:latest": "web", "sbx/a.b-c:latest": "a.b-c", "alpine:3": "", "sbx/x:v1": ""} {
		got, ok := templateNameFromID(id)
		if got != want || ok != (want != "") {
			t.Errorf("templateNameFromID(%q) = %q, %v; want %q", id, got, ok, want)
		}
	}
}

func TestCheckTemplateSpec(t *testing.T) {
	tests := []struct {
		name    string
		spec    platform.TemplateSpec
		wantErr string
		unsupp  bool
	}{
		{name: "dockerfile", spec: platform.TemplateSpec{Name: "web", Dockerfile: "FROM scratch"}},
		{name: "image", spec: platform.TemplateSpec{Name: "web", Image: "alpine:3"}},
		{name: "uppercase name", spec: platform.TemplateSpec{Name: "Web", Dockerfile: "FROM scratch"}, wantErr: "cannot be a Docker image name"},
		{name: "disk", spec: platform.TemplateSpec{Name: "web", Dockerfile: "FROM scratch", DiskMB: 10}, wantErr: "disk_mb", unsupp: true},
		{name: "neither", spec: platform.TemplateSpec{Name: "web"}, wantErr: "exactly one of dockerfile and image"},
		{name: "both", spec: platform.TemplateSpec{Name: "web", Dockerfile: "FROM scratch", Image: "a"}, wantErr: "exactly one"},
		{name: "image with context", spec: platform.TemplateSpec{Name: "web", Image: "a", ContextDir: "/tmp"}, wantErr: "context_dir"},
		{name: "bad start_cmd", spec: platform.TemplateSpec{Name: "web", Image: "a", StartCmd: `["/x"`}, wantErr: "start_cmd"},
		{name: "bad ready_cmd", spec: platform.TemplateSpec{Name: "web", Image: "a", ReadyCmd: `[]`}, wantErr: "ready_cmd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkTemplateSpec(tt.spec)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error = %v, want one saying %q", err, tt.wantErr)
			}
			if got := errors.Is(err, platform.ErrUnsupported); got != tt.unsupp {
				t.Errorf("errors.Is(err, ErrUnsupported) = %v, want %v", got, tt.unsupp)
			}
		})
	}
}

func TestWithLabelInstruction(t *testing.T) {
	tests := []struct {
		name, dockerfile string
		labels           map[string]string
		wantFile         string
		wantRest         map[string]string
	}{
		{name: "no labels", dockerfile: "FROM scratch\n", wantFile: "FROM scratch\n"},
		{name: "one line, sorted, quoted", dockerfile: "FROM scratch",
			labels:   map[string]string{"b": `say "hi" $X \`, "a": ""},
			wantFile: "FROM scratch\nLABEL \"a\"=\"\" \"b\"=\"say \\\"hi\\\" \\$X \\\\\"\n",
			wantRest: map[string]string{}},
		{name: "line break stays a build option", dockerfile: "FROM scratch\n",
			labels:   map[string]string{"a": "1", "m": "x\ny"},
			wantFile: "FROM scratch\nLABEL \"a\"=\"1\"\n",
			wantRest: map[string]string{"m": "x\ny"}},
		{name: "escape directive: all build options", dockerfile: "# escape=`\nFROM scratch\n",
			labels:   map[string]string{"a": "1"},
			wantFile: "# escape=`\nFROM scratch\n",
			wantRest: map[string]string{"a": "1"}},
		{name: "an escape comment below the top is no directive", dockerfile: "# base\n# escape=`\nFROM scratch\n",
			labels:   map[string]string{"a": "1"},
			wantFile: "# base\n# escape=`\nFROM scratch\nLABEL \"a\"=\"1\"\n",
			wantRest: map[string]string{}},
		{name: "a dangling continuation is ended, not joined", dockerfile: "FROM scratch\nENV A=1 \\\n",
			labels:   map[string]string{"a": "1"},
			wantFile: "FROM scratch\nENV A=1 \nLABEL \"a\"=\"1\"\n",
			wantRest: map[string]string{}},
		{name: "a Dockerfile that does not parse: all build options", dockerfile: "FROM scratch\nRUN <<EOF\n",
			labels:   map[string]string{"a": "1"},
			wantFile: "FROM scratch\nRUN <<EOF\n",
			wantRest: map[string]string{"a": "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file, rest := withLabelInstruction(tt.dockerfile, tt.labels)
			if file != tt.wantFile {
				t.Errorf("dockerfile = %q, want %q", file, tt.wantFile)
			}
			if len(rest) != len(tt.wantRest) {
				t.Errorf("rest = %v, want %v", rest, tt.wantRest)
			}
			for k, v := range tt.wantRest {
				if rest[k] != v {
					t.Errorf("rest[%s] = %q, want %q", k, rest[k], v)
				}
			}
		})
	}
}

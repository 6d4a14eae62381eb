package e2b

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/sbxhq/terraform-provider-sbx/internal/platform"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/e2b/e2bfake"
)

// A sandbox's env values and the volume token E2B answers with never reach a log line, even at trace level where bodies are logged.
func TestTraceLogsHoldNoSandboxSecretsOnFake(t *testing.T) {
	p, fake := e2bTestPlatform(t, e2bfake.Options{})
	tpl := e2bTestTemplate(t, p)
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	const envSecret = "sk-live-very-secret-42"
	vol, err := p.Volumes().Create(ctx, platform.VolumeSpec{Name: "data"})
	if err != nil {
		t.Fatal(err)
	}
	box, err := p.Sandboxes().Create(ctx, platform.SandboxSpec{
		TemplateID: tpl, Env: map[string]string{"OPENAI_API_KEY": envSecret},
		VolumeMounts: []platform.VolumeMount{{VolumeID: vol.ID, Path: "/data"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Sandboxes().Get(ctx, box.ID); err != nil {
		t.Fatal(err)
	}
	logs := buf.String()
	if !strings.Contains(logs, "OPENAI_API_KEY") {
		t.Fatalf("the create body was not traced at all; the test proves nothing:\n%s", logs)
	}
	secrets := map[string]string{"env value": envSecret}
	for _, v := range fake.Volumes() {
		secrets["volume token "+v.ID] = v.Token
	}
	for what, s := range secrets {
		if s != "" && strings.Contains(logs, s) {
			t.Errorf("the %s reached the logs", what)
		}
	}
}

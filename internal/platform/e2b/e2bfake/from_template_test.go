package e2bfake

import (
	"net/http"
	"testing"

	"github.com/sbxhq/terraform-provider-sbx/internal/clock"
)

// A build from a template that does not exist is accepted and fails at its
// "base" step, as E2B resolves fromTemplate once the build has started.
func TestE2BFakeBuildFromMissingTemplate(t *testing.T) {
	srv := New(t, Options{APIKey: testKey, Clock: clock.NewFake(epoch), BuildPolls: 1})
	api := newFakeAPI(t, srv)

	var base templateRequestResponseV3
	api.must(http.StatusAccepted, "POST", "/v3/templates", map[string]any{"name": "base"}).decode(t, &base)
	api.must(http.StatusAccepted, "POST", "/v2/templates/"+base.TemplateID+"/builds/"+base.BuildID, map[string]any{"fromImage": "alpine"})
	var info templateBuildInfo
	for range 2 {
		api.must(http.StatusOK, "GET", "/templates/"+base.TemplateID+"/builds/"+base.BuildID+"/status", nil).decode(t, &info)
	}
	if info.Status != buildReady {
		t.Fatalf("base build = %+v", info)
	}

	for ref, wantOK := range map[string]bool{base.TemplateID: true, "base": true, "nope": false} {
		var d templateRequestResponseV3
		api.must(http.StatusAccepted, "POST", "/v3/templates", map[string]any{"name": "derived-" + map[bool]string{true: "ok", false: "bad"}[wantOK] + ref}).decode(t, &d)
		api.must(http.StatusAccepted, "POST", "/v2/templates/"+d.TemplateID+"/builds/"+d.BuildID, map[string]any{"fromTemplate": ref,
			"steps": []map[string]any{{"type": "RUN", "args": []string{"true"}}}})
		for range 2 {
			api.must(http.StatusOK, "GET", "/templates/"+d.TemplateID+"/builds/"+d.BuildID+"/status", nil).decode(t, &info)
		}
		switch {
		case wantOK && info.Status != buildReady:
			t.Errorf("build from %q = %+v, want ready", ref, info)
		case !wantOK && (info.Status != buildError || info.Reason == nil || info.Reason.Step != "base" ||
			info.Reason.Message != "base template 'nope' not found"):
			t.Errorf("build from %q = %+v, want failed at base", ref, info)
		}
	}
}

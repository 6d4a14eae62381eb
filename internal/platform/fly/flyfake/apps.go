package flyfake

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
)

var appNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)

// createApp is Apps_create: 201 without a body. A taken name is a 422 with
// Rails' validation wording, as Fly's apps API answers it (the fake's
// choice; Fly documents 422 among its statuses, platform-apis.md §3.1).
func (s *Server) createApp(c *call) reply {
	var body struct {
		AppName string `json:"app_name"`
		OrgSlug string `json:"org_slug"`
	}
	if err := json.Unmarshal(c.body, &body); err != nil {
		return errorReply(http.StatusBadRequest, "invalid request body: %v", err)
	}
	if !appNameRE.MatchString(body.AppName) {
		return errorReply(http.StatusBadRequest, "invalid app_name %q", body.AppName)
	}
	if body.OrgSlug != s.opts.Org {
		return errorReply(http.StatusNotFound, "organization %q not found", body.OrgSlug)
	}
	if _, taken := s.apps[body.AppName]; taken {
		return errorReply(http.StatusUnprocessableEntity, "Validation failed: Name has already been taken")
	}
	s.addApp(body.AppName, c.now)
	return reply{status: http.StatusCreated}
}

func (s *Server) getApp(c *call) reply {
	a, rep, found := s.appFor(c)
	if !found {
		return rep
	}
	return reply{status: http.StatusOK, body: map[string]any{
		"id": a.id, "name": a.name, "status": "deployed",
		"organization": map[string]string{"name": s.opts.Org, "slug": s.opts.Org},
	}}
}

// deleteApp is Apps_delete: 202, and the app's machines and volumes go with
// it.
func (s *Server) deleteApp(c *call) reply {
	a, rep, found := s.appFor(c)
	if !found {
		return rep
	}
	for _, m := range s.machines {
		if m.app == a.name && !m.gone {
			m.tr, m.state, m.gone = nil, StateDestroyed, true
		}
	}
	for _, v := range s.volumes {
		if v.app == a.name && v.state == VolumeCreated {
			s.destroyVolume(v, c.now)
			v.state = VolumeDestroyed
		}
	}
	delete(s.apps, a.name)
	return reply{status: http.StatusAccepted}
}

// listApps is Apps_list: the org's apps, with their live machine counts.
func (s *Server) listApps(c *call) reply {
	if c.query.Get("org_slug") != s.opts.Org {
		return reply{status: http.StatusOK, body: map[string]any{"apps": []any{}, "total_apps": 0}}
	}
	apps := []map[string]any{}
	for _, name := range s.appNames() {
		a := s.apps[name]
		count := 0
		for _, m := range s.machines {
			if m.app == a.name && !m.gone && m.state != StateDestroyed {
				count++
			}
		}
		apps = append(apps, map[string]any{"id": a.id, "name": a.name, "machine_count": count, "network": map[string]any{}})
	}
	return reply{status: http.StatusOK, body: map[string]any{"apps": apps, "total_apps": len(apps)}}
}

func (s *Server) appNames() []string {
	out := make([]string, 0, len(s.apps))
	for name := range s.apps {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

package flyfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// Routes Fly serves that the 2023 spec lacks (or writes otherwise). Their
// requests are checked against hand-written shapes taken from fly-go, and
// their answers are the fake's own types for those shapes:
//   - RouteSuspend: fly-go flaps/flaps_machines.go Suspend, POST with no
//     body (a lease nonce header at most).
//   - RouteUpdateVolume: fly-go flaps/flaps_volumes.go UpdateVolume, PUT
//     with UpdateVolumeRequest {snapshot_retention *int, auto_backup_enabled
//     *bool} (volume_types.go), answering a Volume. The spec's POST
//     Volumes_update is served too, on the spec's shapes.
//   - RouteWaitSuspended: GET .../wait with state=suspended among its
//     states; the spec's enum for state stops at started, stopped,
//     destroyed (Fly's docs and fly-go's MachineStateSuspended add
//     suspended). Its query is checked against fly-go's waitQuerystring
//     (flaps/flaps_machines_wait.go): state repeated, timeout an integer,
//     version; instance_id as the spec has it.
//   - RouteExec (exec.go): the spec has it, and its request is validated
//     against the spec's MachineExecRequest; its answer is fly-go's
//     MachineExecResponse, which the spec writes as a string.
const (
	RouteSuspend       = "POST /apps/{app_name}/machines/{machine_id}/suspend"
	RouteUpdateVolume  = "PUT /apps/{app_name}/volumes/{volume_id}"
	RouteWaitSuspended = "GET /apps/{app_name}/machines/{machine_id}/wait?state=suspended"
	routeWait          = "GET /apps/{app_name}/machines/{machine_id}/wait"
)

// offSpecRoute recognises the routes above on a request's path (with or
// without /v1).
func offSpecRoute(r *http.Request) (string, map[string]string, bool) {
	p := strings.TrimPrefix(r.URL.Path, "/v1")
	parts := strings.Split(strings.Trim(p, "/"), "/")
	if len(parts) < 4 || parts[0] != "apps" {
		return "", nil, false
	}
	switch {
	case r.Method == http.MethodPost && len(parts) == 5 && parts[2] == "machines" && parts[4] == "suspend":
		return RouteSuspend, map[string]string{"app_name": parts[1], "machine_id": parts[3]}, true
	case r.Method == http.MethodPut && len(parts) == 4 && parts[2] == "volumes":
		return RouteUpdateVolume, map[string]string{"app_name": parts[1], "volume_id": parts[3]}, true
	case r.Method == http.MethodPost && len(parts) == 5 && parts[2] == "machines" && parts[4] == "exec":
		return RouteExec, map[string]string{"app_name": parts[1], "machine_id": parts[3]}, true
	case r.Method == http.MethodGet && len(parts) == 5 && parts[2] == "machines" && parts[4] == "wait" && slices.Contains(r.URL.Query()["state"], StateSuspended):
		return RouteWaitSuspended, map[string]string{"app_name": parts[1], "machine_id": parts[3]}, true
	}
	return "", nil, false
}

// serveOffSpec is ServeHTTP's path for the routes the spec lacks: the same
// counts, faults and error body, with the hand-written checks.
func (s *Server) serveOffSpec(w http.ResponseWriter, r *http.Request, route string, params map[string]string, body []byte) {
	s.api.Count(route)
	problems := checkOffSpec(route, r, body)
	if route == RouteExec {
		problems = s.checkExecRequest(r, body)
	}
	if len(problems) > 0 {
		msg := strings.Join(problems, "; ")
		s.api.Violation("%s %s: request does not match fly-go's shape: %s", r.Method, r.URL.RequestURI(), msg)
		s.api.WriteRaw(w, r, errorReply(http.StatusBadRequest, "request does not match the API: %s", msg).wire())
		return
	}
	fault, faulted := s.api.TakeFault(route, fakeapi.RequestKey(r, body))
	if faulted && !s.api.BeforeHandling(w, r, nil, route, fault) {
		return
	}
	c := &call{r: r, body: body, params: params, query: r.URL.Query(), now: s.clock.Now()}
	rep := s.run(route, offSpecHandlers[route], c)
	if faulted && !s.api.AfterHandling(w, r, fault) {
		return
	}
	s.api.WriteRaw(w, r, rep.wire())
}

var offSpecHandlers = map[string]func(*Server, *call) reply{
	RouteSuspend:       (*Server).suspendMachine,
	RouteUpdateVolume:  (*Server).updateVolume,
	RouteWaitSuspended: nil, // run sends wait routes to waitMachine
	RouteExec:          nil, // run sends it to execMachine
}

// checkOffSpec holds a request to the hand-written shape of its route.
func checkOffSpec(route string, r *http.Request, body []byte) []string {
	switch route {
	case RouteUpdateVolume:
		return checkObject(body, true, map[string]string{"snapshot_retention": "integer", "auto_backup_enabled": "boolean"})
	case RouteWaitSuspended:
		var problems []string
		for _, st := range r.URL.Query()["state"] {
			switch st {
			case StateStarted, StateStopped, StateSuspended, StateDestroyed:
			default:
				problems = append(problems, fmt.Sprintf("query state %q is not one of started, stopped, suspended, destroyed", st))
			}
		}
		if v := r.URL.Query().Get("timeout"); v != "" {
			if _, err := strconv.Atoi(v); err != nil {
				problems = append(problems, fmt.Sprintf("query timeout %q is not an integer", v))
			}
		}
		return problems
	}
	return nil
}

// checkObject checks a JSON object body's known members against their JSON
// types; other members pass, as the spec's objects allow them.
func checkObject(body []byte, required bool, types map[string]string) []string {
	if len(bytes.TrimSpace(body)) == 0 {
		if required {
			return []string{"a JSON body is required"}
		}
		return nil
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil {
		return []string{"the body is not a JSON object: " + err.Error()}
	}
	var problems []string
	for k, want := range types {
		v, present := obj[k]
		if !present {
			continue
		}
		okType := false
		switch want {
		case "integer":
			if n, isNum := v.(json.Number); isNum {
				_, err := n.Int64()
				okType = err == nil
			}
		case "boolean":
			_, okType = v.(bool)
		}
		if !okType {
			problems = append(problems, fmt.Sprintf("at /%s: value must be an %s", k, want))
		}
	}
	return problems
}

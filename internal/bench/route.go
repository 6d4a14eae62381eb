package bench

import "strings"

// routeOf folds the ids out of a path ("/sandboxes/ib3x/pause" becomes
// "/sandboxes/{id}/pause") so a thousand boxes count under one route.
// An id is any segment after the first that is not a known word.
func routeOf(path string) string {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i, s := range segs {
		if i > 0 && !words[s] {
			segs[i] = "{id}"
		}
	}
	return "/" + strings.Join(segs, "/")
}

// words are the fixed path segments of the APIs the bench fronts.
var words = map[string]bool{
	"sandboxes": true, "templates": true, "builds": true, "status": true, "files": true,
	"pause": true, "resume": true, "connect": true, "timeout": true, "refreshes": true,
	"snapshots": true, "volumes": true, "logs": true, "metrics": true,
}

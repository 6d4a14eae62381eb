package daytonafake

import (
	"net/http"
	"strings"
)

// buildLogsPrefix is where the URL from GET /snapshots/{id}/build-logs-url
// points: Daytona serves build logs from the region's proxy at
// <proxy>/snapshots/{id}/build-logs (snapshot.service.ts:591-608); the fake
// serves them itself, outside the API spec, as plain text.
const buildLogsPrefix = "/_fake/proxy/snapshots/"

func (s *Server) serveBuildLogs(w http.ResponseWriter, r *http.Request) {
	id, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, buildLogsPrefix), "/build-logs")
	if r.Method != http.MethodGet || !ok {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	sn, found := s.snapshots[id]
	var text string
	if found && sn.build != nil {
		text = strings.Join(sn.logs, "\n") + "\n"
	}
	s.mu.Unlock()
	if text == "" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte(text)) // the client may have gone
}

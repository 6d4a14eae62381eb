package daytonafake

// handlers maps the spec operations the fake serves (method and path
// template, as the spec writes them) to their handlers. Every other
// operation in the spec is reported as unserved (501 and a violation).
var handlers = map[string]func(*Server, *call) reply{
	"POST /snapshots":                    (*Server).createSnapshot,
	"GET /snapshots":                     (*Server).listSnapshots,
	"GET /snapshots/{id}":                (*Server).getSnapshot,
	"DELETE /snapshots/{id}":             (*Server).deleteSnapshot,
	"POST /snapshots/{id}/activate":      (*Server).activateSnapshot,
	"POST /snapshots/{id}/deactivate":    (*Server).deactivateSnapshot,
	"GET /snapshots/{id}/build-logs-url": (*Server).buildLogsURL,
	"GET /snapshots/{id}/build-logs":     (*Server).buildLogs,

	"GET /object-storage/push-access": (*Server).pushAccess,

	"POST /sandbox":                                          (*Server).createSandbox,
	"GET /sandbox":                                           (*Server).listSandboxes,
	"GET /sandbox/{sandboxIdOrName}":                         (*Server).getSandbox,
	"DELETE /sandbox/{sandboxIdOrName}":                      (*Server).deleteSandbox,
	"POST /sandbox/{sandboxIdOrName}/start":                  (*Server).startSandbox,
	"POST /sandbox/{sandboxIdOrName}/stop":                   (*Server).stopSandbox,
	"POST /sandbox/{sandboxIdOrName}/pause":                  (*Server).pauseSandbox,
	"POST /sandbox/{sandboxIdOrName}/archive":                (*Server).archiveSandbox,
	"POST /sandbox/{sandboxIdOrName}/resize":                 (*Server).resizeSandbox,
	"POST /sandbox/{sandboxIdOrName}/recover":                (*Server).recoverSandbox,
	"PUT /sandbox/{sandboxIdOrName}/labels":                  (*Server).replaceLabels,
	"POST /sandbox/{sandboxIdOrName}/autostop/{interval}":    (*Server).setAutoStop,
	"POST /sandbox/{sandboxIdOrName}/autoarchive/{interval}": (*Server).setAutoArchive,
	"POST /sandbox/{sandboxIdOrName}/autodelete/{interval}":  (*Server).setAutoDelete,
	"POST /sandbox/{sandboxIdOrName}/snapshot":               (*Server).snapshotSandbox,
	"POST /sandbox/{sandboxIdOrName}/network-settings":       (*Server).updateNetworkSettings,
	"POST /sandbox/{sandboxIdOrName}/public/{isPublic}":      (*Server).setPublic,
	"POST /sandbox/{sandboxId}/last-activity":                (*Server).touchActivity,

	routeExecute: (*Server).execute,

	"POST /volumes":               (*Server).createVolume,
	"GET /volumes":                (*Server).listVolumes,
	"GET /volumes/{volumeId}":     (*Server).getVolume,
	"GET /volumes/by-name/{name}": (*Server).getVolumeByName,
	"DELETE /volumes/{volumeId}":  (*Server).deleteVolume,
}

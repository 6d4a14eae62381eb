package e2bfake

// handlers maps the spec operations the fake serves (method and path template,
// as the spec writes them) to their handlers. Every other operation in the
// spec is reported as unserved.
var handlers = map[string]func(*Server, *call) reply{
	"POST /v3/templates":                                  (*Server).createTemplate,
	"GET /templates/{templateID}/files/{hash}":            (*Server).buildFileUploadLink,
	"POST /v2/templates/{templateID}/builds/{buildID}":    (*Server).startBuild,
	"GET /templates/{templateID}/builds/{buildID}/status": (*Server).buildStatus,
	"GET /templates/{templateID}/builds/{buildID}/logs":   (*Server).buildLogs,
	"GET /templates/{templateID}":                         (*Server).getTemplate,
	"GET /v2/templates":                                   (*Server).listTemplates,
	"GET /templates/aliases/{alias}":                      (*Server).templateByAlias,
	"DELETE /templates/{templateID}":                      (*Server).deleteTemplate,
	"PATCH /v2/templates/{templateID}":                    (*Server).updateTemplate,

	"POST /sandboxes":                       (*Server).createSandbox,
	"GET /sandboxes/{sandboxID}":            (*Server).getSandbox,
	"GET /v2/sandboxes":                     (*Server).listSandboxes,
	"POST /sandboxes/{sandboxID}/pause":     (*Server).pauseSandbox,
	"POST /sandboxes/{sandboxID}/connect":   (*Server).connectSandbox,
	"POST /sandboxes/{sandboxID}/timeout":   (*Server).setSandboxTimeout,
	"PUT /sandboxes/{sandboxID}/network":    (*Server).updateSandboxNetwork,
	"DELETE /sandboxes/{sandboxID}":         (*Server).killSandbox,
	"POST /sandboxes/{sandboxID}/snapshots": (*Server).createSnapshot,
	"GET /snapshots":                        (*Server).listSnapshots,
	"POST /volumes":                         (*Server).createVolume,
	"GET /volumes":                          (*Server).listVolumes,
	"GET /volumes/{volumeID}":               (*Server).getVolume,
	"DELETE /volumes/{volumeID}":            (*Server).deleteVolume,
}

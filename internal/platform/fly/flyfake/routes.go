package flyfake

// handlers maps the spec operations the fake serves (method and path as the
// spec writes them, without /v1) to their handlers. Every other operation in
// the spec answers 501 and is recorded as unserved. The routes the spec
// lacks are in offspec.go.
var handlers = map[string]func(*Server, *call) reply{
	"GET /apps":               (*Server).listApps,
	"POST /apps":              (*Server).createApp,
	"GET /apps/{app_name}":    (*Server).getApp,
	"DELETE /apps/{app_name}": (*Server).deleteApp,

	"POST /apps/{app_name}/machines":                    (*Server).createMachine,
	"GET /apps/{app_name}/machines":                     (*Server).listMachines,
	"GET /apps/{app_name}/machines/{machine_id}":        (*Server).getMachine,
	"POST /apps/{app_name}/machines/{machine_id}":       (*Server).updateMachine,
	"DELETE /apps/{app_name}/machines/{machine_id}":     (*Server).deleteMachine,
	"POST /apps/{app_name}/machines/{machine_id}/start": (*Server).startMachine,
	"POST /apps/{app_name}/machines/{machine_id}/stop":  (*Server).stopMachine,
	routeWait: nil, // run sends it to waitMachine
	"GET /apps/{app_name}/machines/{machine_id}/metadata":          (*Server).getMetadata,
	"POST /apps/{app_name}/machines/{machine_id}/metadata/{key}":   (*Server).setMetadata,
	"DELETE /apps/{app_name}/machines/{machine_id}/metadata/{key}": (*Server).deleteMetadata,

	"POST /apps/{app_name}/volumes":                       (*Server).createVolume,
	"GET /apps/{app_name}/volumes":                        (*Server).listVolumes,
	"GET /apps/{app_name}/volumes/{volume_id}":            (*Server).getVolume,
	"POST /apps/{app_name}/volumes/{volume_id}":           (*Server).updateVolume,
	"DELETE /apps/{app_name}/volumes/{volume_id}":         (*Server).deleteVolume,
	"PUT /apps/{app_name}/volumes/{volume_id}/extend":     (*Server).extendVolume,
	"GET /apps/{app_name}/volumes/{volume_id}/snapshots":  (*Server).listSnapshots,
	"POST /apps/{app_name}/volumes/{volume_id}/snapshots": (*Server).createSnapshot,
}

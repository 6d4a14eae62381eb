package daytona

import (
	"encoding/json"
	"time"
)

// apiTime is a timestamp as Daytona writes it: ISO 8601 from the server
// (NestJS), "2006-01-02 15:04:05+00:00" in the spec's examples; null or
// empty is zero.
type apiTime struct{ time.Time }

var apiTimeLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05"}

func (t *apiTime) UnmarshalJSON(b []byte) error {
	var s *string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == nil || *s == "" {
		t.Time = time.Time{}
		return nil
	}
	for _, layout := range apiTimeLayouts {
		if v, err := time.Parse(layout, *s); err == nil {
			t.Time = v
			return nil
		}
	}
	// An unreadable time is not worth failing a read over.
	t.Time = time.Time{}
	return nil
}

// MarshalJSON writes the time as RFC 3339.
func (t apiTime) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.Format(time.RFC3339Nano))
}

// The bodies of Daytona's API (v0.190.0, daytona-openapi.yaml), as far as
// the provider reads or sends them.

// createSandbox is CreateSandbox.
type createSandbox struct {
	Name                string            `json:"name,omitempty"`
	Snapshot            string            `json:"snapshot,omitempty"`
	Env                 map[string]string `json:"env,omitempty"`
	Labels              map[string]string `json:"labels,omitempty"`
	NetworkBlockAll     *bool             `json:"networkBlockAll,omitempty"`
	NetworkAllowList    *string           `json:"networkAllowList,omitempty"`
	Target              string            `json:"target,omitempty"`
	AutoStopInterval    *int64            `json:"autoStopInterval,omitempty"`
	AutoArchiveInterval *int64            `json:"autoArchiveInterval,omitempty"`
	AutoDeleteInterval  *int64            `json:"autoDeleteInterval,omitempty"`
	Volumes             []sandboxVolume   `json:"volumes,omitempty"`
}

// sandboxVolume is SandboxVolume.
type sandboxVolume struct {
	VolumeID  string `json:"volumeId"`
	MountPath string `json:"mountPath"`
	Subpath   string `json:"subpath,omitempty"`
}

// sandboxAPI is Sandbox.
type sandboxAPI struct {
	ID                  string            `json:"id"`
	Name                string            `json:"name"`
	Snapshot            string            `json:"snapshot"`
	Env                 map[string]string `json:"env"`
	Labels              map[string]string `json:"labels"`
	NetworkBlockAll     bool              `json:"networkBlockAll"`
	NetworkAllowList    string            `json:"networkAllowList"`
	Target              string            `json:"target"`
	CPU                 float64           `json:"cpu"`
	Memory              float64           `json:"memory"`
	Disk                float64           `json:"disk"`
	State               string            `json:"state"`
	DesiredState        string            `json:"desiredState"`
	ErrorReason         string            `json:"errorReason"`
	Recoverable         bool              `json:"recoverable"`
	AutoStopInterval    *float64          `json:"autoStopInterval"`
	AutoArchiveInterval *float64          `json:"autoArchiveInterval"`
	AutoDeleteInterval  *float64          `json:"autoDeleteInterval"`
	Volumes             []sandboxVolume   `json:"volumes"`
	CreatedAt           apiTime           `json:"createdAt"`
	UpdatedAt           apiTime           `json:"updatedAt"`
	LastActivityAt      apiTime           `json:"lastActivityAt"`
	SandboxClass        string            `json:"sandboxClass"`
	// ToolboxProxyURL is where the box's daemon (the toolbox API) is
	// reached: <toolboxProxyUrl>/<id>/<daemon path>.
	ToolboxProxyURL string `json:"toolboxProxyUrl"`
}

// sandboxPage is ListSandboxesResponse.
type sandboxPage struct {
	Items      []sandboxAPI `json:"items"`
	NextCursor *string      `json:"nextCursor"`
}

// resizeSandbox is ResizeSandbox (GB for memory and disk); only the
// fields that change are sent: the server refuses a resize that changes
// nothing, and any disk field on a box not stopped.
type resizeSandbox struct {
	CPU    *int64 `json:"cpu,omitempty"`
	Memory *int64 `json:"memory,omitempty"`
	Disk   *int64 `json:"disk,omitempty"`
}

// sandboxLabels is SandboxLabels.
type sandboxLabels struct {
	Labels map[string]string `json:"labels"`
}

// networkSettings is UpdateSandboxNetworkSettings.
type networkSettings struct {
	NetworkBlockAll  bool   `json:"networkBlockAll"`
	NetworkAllowList string `json:"networkAllowList"`
}

// createSandboxSnapshot is CreateSandboxSnapshot.
type createSandboxSnapshot struct {
	Name          string `json:"name"`
	IncludeMemory bool   `json:"includeMemory,omitempty"`
}

// createSnapshot is CreateSnapshot (memory and disk in GB).
type createSnapshot struct {
	Name       string           `json:"name"`
	ImageName  string           `json:"imageName,omitempty"`
	Entrypoint []string         `json:"entrypoint,omitempty"`
	CPU        int64            `json:"cpu,omitempty"`
	Memory     int64            `json:"memory,omitempty"`
	Disk       int64            `json:"disk,omitempty"`
	BuildInfo  *createBuildInfo `json:"buildInfo,omitempty"`
}

// createBuildInfo is CreateBuildInfo.
type createBuildInfo struct {
	DockerfileContent string   `json:"dockerfileContent"`
	ContextHashes     []string `json:"contextHashes,omitempty"`
}

// snapshotAPI is SnapshotDto.
type snapshotAPI struct {
	ID           string     `json:"id"`
	Name         string     `json:"name"`
	ImageName    string     `json:"imageName"`
	State        string     `json:"state"`
	Size         *float64   `json:"size"`
	Entrypoint   []string   `json:"entrypoint"`
	CPU          float64    `json:"cpu"`
	Mem          float64    `json:"mem"`
	Disk         float64    `json:"disk"`
	ErrorReason  *string    `json:"errorReason"`
	CreatedAt    apiTime    `json:"createdAt"`
	UpdatedAt    apiTime    `json:"updatedAt"`
	LastUsedAt   *apiTime   `json:"lastUsedAt"`
	BuildInfo    *buildInfo `json:"buildInfo"`
	SandboxClass string     `json:"sandboxClass"`
	General      bool       `json:"general"`
	Ref          string     `json:"ref"`
}

// buildInfo is BuildInfo.
type buildInfo struct {
	DockerfileContent string   `json:"dockerfileContent"`
	ContextHashes     []string `json:"contextHashes"`
	SnapshotRef       string   `json:"snapshotRef"`
}

// snapshotPage is PaginatedSnapshots.
type snapshotPage struct {
	Items      []snapshotAPI `json:"items"`
	Total      float64       `json:"total"`
	Page       float64       `json:"page"`
	TotalPages float64       `json:"totalPages"`
}

// volumeAPI is VolumeDto.
type volumeAPI struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	State       string  `json:"state"`
	CreatedAt   apiTime `json:"createdAt"`
	ErrorReason *string `json:"errorReason"`
}

// createVolume is CreateVolume.
type createVolume struct {
	Name string `json:"name"`
}

// urlAPI is Url.
type urlAPI struct {
	URL string `json:"url"`
}

// storageAccess is StorageAccessDto: short-lived S3 credentials to push a
// build context.
type storageAccess struct {
	AccessKey      string `json:"accessKey"`
	Secret         string `json:"secret"`
	SessionToken   string `json:"sessionToken"`
	StorageURL     string `json:"storageUrl"`
	OrganizationID string `json:"organizationId"`
	Bucket         string `json:"bucket"`
}

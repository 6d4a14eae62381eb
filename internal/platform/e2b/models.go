package e2b

import "time"

// The E2B API's request and response bodies this package uses, named after
// the schemas in the E2B OpenAPI spec. Optional fields are pointers or
// omitempty so a request never sends a value the user did not set.

// templateCreateRequest is TemplateBuildRequestV3.
type templateCreateRequest struct {
	Name     string `json:"name"`
	CPUCount int64  `json:"cpuCount,omitempty"`
	MemoryMB int64  `json:"memoryMB,omitempty"`
}

// templateCreateResponse is TemplateRequestResponseV3.
type templateCreateResponse struct {
	TemplateID string   `json:"templateID"`
	BuildID    string   `json:"buildID"`
	Names      []string `json:"names"`
}

// templateStep is TemplateStep.
type templateStep struct {
	Type      string   `json:"type"`
	Args      []string `json:"args"`
	FilesHash string   `json:"filesHash,omitempty"`
}

// templateBuildStart is TemplateBuildStartV2.
type templateBuildStart struct {
	FromImage    string         `json:"fromImage,omitempty"`
	FromTemplate string         `json:"fromTemplate,omitempty"`
	Steps        []templateStep `json:"steps"`
	StartCmd     string         `json:"startCmd,omitempty"`
	ReadyCmd     string         `json:"readyCmd,omitempty"`
}

// templateUpdate is TemplateUpdateRequest.
type templateUpdate struct {
	Public bool `json:"public"`
}

// templateFileUpload is TemplateBuildFileUpload.
type templateFileUpload struct {
	Present bool   `json:"present"`
	URL     string `json:"url,omitempty"`
}

// buildLogEntry is BuildLogEntry.
type buildLogEntry struct {
	Timestamp time.Time `json:"timestamp"`
	Message   string    `json:"message"`
	Level     string    `json:"level"`
	Step      string    `json:"step,omitempty"`
}

// templateBuildInfo is TemplateBuildInfo.
type templateBuildInfo struct {
	TemplateID string          `json:"templateID"`
	BuildID    string          `json:"buildID"`
	Status     string          `json:"status"`
	Logs       []string        `json:"logs"`
	LogEntries []buildLogEntry `json:"logEntries"`
	Reason     *struct {
		Message string `json:"message"`
		Step    string `json:"step,omitempty"`
	} `json:"reason,omitempty"`
}

// templateBuildRecord is TemplateBuild.
type templateBuildRecord struct {
	BuildID   string    `json:"buildID"`
	Status    string    `json:"status"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	CPUCount  int64     `json:"cpuCount"`
	MemoryMB  int64     `json:"memoryMB"`
}

// templateWithBuilds is TemplateWithBuilds.
type templateWithBuilds struct {
	TemplateID string                `json:"templateID"`
	Public     bool                  `json:"public"`
	Names      []string              `json:"names"`
	CreatedAt  time.Time             `json:"createdAt"`
	Builds     []templateBuildRecord `json:"builds"`
}

// templateListed is Template (one row of GET /v2/templates).
type templateListed struct {
	TemplateID  string    `json:"templateID"`
	BuildID     string    `json:"buildID"`
	CPUCount    int64     `json:"cpuCount"`
	MemoryMB    int64     `json:"memoryMB"`
	Names       []string  `json:"names"`
	CreatedAt   time.Time `json:"createdAt"`
	BuildStatus string    `json:"buildStatus"`
}

// volumeMountAPI is SandboxVolumeMount.
type volumeMountAPI struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

// newSandbox is NewSandbox.
type newSandbox struct {
	TemplateID string `json:"templateID"`
	Timeout    int64  `json:"timeout"`
	AutoPause  bool   `json:"autoPause,omitempty"`
	// AutoPauseMemory false makes the timeout's pause keep only the
	// filesystem; left out, E2B keeps the memory.
	AutoPauseMemory *bool             `json:"autoPauseMemory,omitempty"`
	Metadata        map[string]string `json:"metadata,omitempty"`
	EnvVars         map[string]string `json:"envVars,omitempty"`
	VolumeMounts    []volumeMountAPI  `json:"volumeMounts,omitempty"`
	AutoResume      *autoResumeAPI    `json:"autoResume,omitempty"`
	// AllowInternetAccess false denies all egress but Network.AllowOut.
	AllowInternetAccess *bool       `json:"allow_internet_access,omitempty"`
	Network             *networkAPI `json:"network,omitempty"`
}

// autoResumeAPI is SandboxAutoResumeConfig.
type autoResumeAPI struct {
	Enabled bool `json:"enabled"`
}

// networkAPI is the egress part of SandboxNetworkConfig (as sent and as
// SandboxDetail reports it).
type networkAPI struct {
	AllowOut []string `json:"allowOut,omitempty"`
	DenyOut  []string `json:"denyOut,omitempty"`
}

// networkUpdate is SandboxNetworkUpdateConfig: it replaces the box's
// egress rules, a field left out clearing them.
type networkUpdate struct {
	AllowOut            []string `json:"allowOut,omitempty"`
	DenyOut             []string `json:"denyOut,omitempty"`
	AllowInternetAccess *bool    `json:"allow_internet_access,omitempty"`
}

// sandboxCreated is Sandbox (the create and connect response).
type sandboxCreated struct {
	SandboxID  string `json:"sandboxID"`
	TemplateID string `json:"templateID"`
}

// sandboxDetail is SandboxDetail and ListedSandbox (the list row lacks lifecycle).
type sandboxDetail struct {
	SandboxID    string            `json:"sandboxID"`
	TemplateID   string            `json:"templateID"`
	Alias        string            `json:"alias,omitempty"`
	StartedAt    time.Time         `json:"startedAt"`
	EndAt        time.Time         `json:"endAt"`
	CPUCount     int64             `json:"cpuCount"`
	MemoryMB     int64             `json:"memoryMB"`
	DiskSizeMB   int64             `json:"diskSizeMB"`
	Metadata     map[string]string `json:"metadata,omitempty"`
	State        string            `json:"state"`
	VolumeMounts []volumeMountAPI  `json:"volumeMounts,omitempty"`
	// AllowInternetAccess is null when the create did not set it.
	AllowInternetAccess *bool       `json:"allowInternetAccess,omitempty"`
	Network             *networkAPI `json:"network,omitempty"`
	Lifecycle           *struct {
		AutoResume bool   `json:"autoResume"`
		OnTimeout  string `json:"onTimeout"`
	} `json:"lifecycle,omitempty"`
}

// pauseRequest is SandboxPauseRequest.
type pauseRequest struct {
	Memory bool `json:"memory"`
}

// timeoutRequest is SandboxTimeoutRequest and ConnectSandbox.
type timeoutRequest struct {
	Timeout int64 `json:"timeout"`
}

// snapshotRequest is SandboxSnapshotRequest.
type snapshotRequest struct {
	Name string `json:"name,omitempty"`
}

// snapshotInfo is SnapshotInfo.
type snapshotInfo struct {
	SnapshotID string   `json:"snapshotID"`
	Names      []string `json:"names"`
}

// newVolume is NewVolume.
type newVolume struct {
	Name string `json:"name"`
}

// volumeAPI is Volume and VolumeAndToken; the token is never kept.
type volumeAPI struct {
	VolumeID string `json:"volumeID"`
	Name     string `json:"name"`
}

package daytonafake

import (
	"strings"

	"github.com/sbxhq/terraform-provider-sbx/internal/fakeapi"
)

// SnapshotSeed describes a snapshot that exists before the test starts, such
// as a Windows-class one (which POST /snapshots refuses to create) or a
// general snapshot every organization sees.
type SnapshotSeed struct {
	Name      string
	ImageName string
	// SandboxClass defaults to "container".
	SandboxClass string
	// CPU, MemoryGB and DiskGB default to the entity's 1, 1 and 3.
	CPU, MemoryGB, DiskGB int
	// GPU is the GPU count (GPU boxes must be ephemeral).
	GPU int
	// General snapshots belong to no organization and cannot be deleted.
	General bool
}

// SeedSnapshot adds an active snapshot and returns its id.
func (s *Server) SeedSnapshot(seed SnapshotSeed) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	sn := &snapshot{seq: s.nextSeq(), id: fakeapi.UUID(), name: seed.Name, imageName: seed.ImageName, general: seed.General,
		state: snapActive, cpu: orDefault(seed.CPU, defaultSnapCPU), gpu: seed.GPU, mem: orDefault(seed.MemoryGB, defaultSnapMem),
		disk: orDefault(seed.DiskGB, defaultSnapDisk), class: seed.SandboxClass, createdAt: now, updatedAt: now}
	if sn.class == "" {
		sn.class = ClassContainer
	}
	sn.ref = seed.ImageName
	if sn.ref == "" {
		sn.ref = "daytona-internal/seed-" + strings.ToLower(sn.id[:8]) + ":fake"
	}
	s.snapshots[sn.id] = sn
	return sn.id
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

package flyacc_test

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sbxhq/terraform-provider-sbx/internal/acctest"
	"github.com/sbxhq/terraform-provider-sbx/internal/platform/fly/flyfake"
)

// flyResCreateRoute is the fake's machine create route.
const flyResCreateRoute = "POST /apps/{app_name}/machines"

// flyResEmptyAfterApply is the plan check every applying step makes: once
// applied and refreshed, the configuration plans nothing.
var flyResEmptyAfterApply = resource.ConfigPlanChecks{
	PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
}

// flyResInPlace is the plan checks of a step that must change addr in
// place (never replace it) and then plan nothing.
func flyResInPlace(addr string) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
}

// flyResLiveMachines are the machines the fake holds that are not destroyed.
func flyResLiveMachines(fake *flyfake.Server) []flyfake.MachineView {
	var live []flyfake.MachineView
	for _, m := range fake.Machines() {
		if !m.Destroyed {
			live = append(live, m)
		}
	}
	return live
}

// flyResLiveVolumes are the volumes the fake holds that are not being
// destroyed or destroyed.
func flyResLiveVolumes(fake *flyfake.Server) []flyfake.VolumeView {
	var live []flyfake.VolumeView
	for _, v := range fake.Volumes() {
		if v.State != flyfake.VolumeScheduledDestroy && v.State != flyfake.VolumeDestroyed {
			live = append(live, v)
		}
	}
	return live
}

// flyResMachineCount checks how many live machines the fake holds.
func flyResMachineCount(fake *flyfake.Server, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := flyResLiveMachines(fake); len(got) != want {
			var ids []string
			for _, m := range got {
				ids = append(ids, fmt.Sprintf("%s (%s, %s)", m.ID, m.Name, m.State))
			}
			return fmt.Errorf("the fake holds %d machines, want %d: %s", len(got), want, strings.Join(ids, ", "))
		}
		return nil
	}
}

// flyResMachine is the fake's view of the machine at addr in the state.
func flyResMachine(s *terraform.State, fake *flyfake.Server, addr string) (flyfake.MachineView, error) {
	id, err := acctest.ResourceID(s, addr)
	if err != nil {
		return flyfake.MachineView{}, err
	}
	m, ok := fake.Machine(id)
	if !ok || m.Destroyed {
		return flyfake.MachineView{}, fmt.Errorf("the fake holds no live machine %s (%s)", id, addr)
	}
	return m, nil
}

// flyResVolume is the fake's view of the volume at addr in the state.
func flyResVolume(s *terraform.State, fake *flyfake.Server, addr string) (flyfake.VolumeView, error) {
	id, err := acctest.ResourceID(s, addr)
	if err != nil {
		return flyfake.VolumeView{}, err
	}
	v, ok := fake.Volume(id)
	if !ok {
		return flyfake.VolumeView{}, fmt.Errorf("the fake holds no volume %s (%s)", id, addr)
	}
	return v, nil
}

// flyResMachineState checks the fake's state of the machine at addr
// (Fly's word: started, suspended, stopped...).
func flyResMachineState(fake *flyfake.Server, addr, want string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		m, err := flyResMachine(s, fake, addr)
		if err != nil {
			return err
		}
		if m.State != want {
			return fmt.Errorf("the fake's machine %s (%s) is %s, want %s", m.ID, addr, m.State, want)
		}
		return nil
	}
}

// flyResSameID checks that the resource at addr still has the id *id holds.
func flyResSameID(addr string, id *string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(addr, "id", func(v string) error {
		if v != *id {
			return fmt.Errorf("%s has the id %s, want %s (it was replaced)", addr, v, *id)
		}
		return nil
	})
}

// flyResHoldsNothing is a CheckDestroy: after destroy the fake holds no
// machine and no volume (snapshots stay: Fly cannot delete them).
func flyResHoldsNothing(fake *flyfake.Server) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var left []string
		for _, m := range flyResLiveMachines(fake) {
			left = append(left, fmt.Sprintf("machine %s (%s, %s)", m.ID, m.Name, m.State))
		}
		for _, v := range flyResLiveVolumes(fake) {
			left = append(left, fmt.Sprintf("volume %s (%s, %s)", v.ID, v.Name, v.State))
		}
		if len(left) > 0 {
			return fmt.Errorf("after destroy the fake still holds:\n%s", strings.Join(left, "\n"))
		}
		return nil
	}
}

// flyResSandboxImport is the import step of the sandbox at addr. A
// machine made without cpu_count and memory_mb keeps them null in state
// (the provider records no platform default), while an import reads Fly's
// default guest (1 shared CPU, 256 MB) into them: they are not compared.
func flyResSandboxImport(addr string) resource.TestStep {
	return resource.TestStep{
		ResourceName:            addr,
		ImportState:             true,
		ImportStateVerify:       true,
		ImportStateVerifyIgnore: []string{"timeouts", "status_since", "cpu_count", "memory_mb"},
	}
}

// flyResVolumeImport is the import step of the volume at addr. region and
// snapshot_retention left out of the configuration stay null in state (the
// provider records no platform default), while an import reads the region
// Fly chose (iad) and any retention other than Fly's default (5 days, which
// reads as unset): they are not compared.
func flyResVolumeImport(addr string, ignore ...string) resource.TestStep {
	return resource.TestStep{
		ResourceName:            addr,
		ImportState:             true,
		ImportStateVerify:       true,
		ImportStateVerifyIgnore: append([]string{"timeouts", "region", "snapshot_retention"}, ignore...),
	}
}

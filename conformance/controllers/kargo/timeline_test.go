package kargo

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	kargoapi "github.com/akuity/kargo/api/v1alpha1"
	argoapi "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/internal/manifest"
)

// chain is a project of stages, each promoting the Freight of the ones it names (direct from the
// Warehouse when it names none), with the same render steps as shop's, Applications for every
// stage, and auto-promotion for all.
func chain(t testing.TB, sources map[string]kargoapi.FreightSources, order ...string) map[string][]manifest.Object {
	objs := []manifest.Object{kargoProject("24h"), projectConfig(order...), warehouse()}
	for _, name := range order {
		objs = append(objs, stage(name, append(renderSteps(t, name), syncStep(t, name)), sources[name]))
	}
	return map[string][]manifest.Object{"shop.k8s.yaml": objs, "fleet.k8s.yaml": argoFor(order...)}
}

func releaseOf(r *Report, when string) ReleaseRun {
	for _, rr := range r.Releases {
		if rr.Release == when {
			return rr
		}
	}
	return ReleaseRun{}
}

func TestAnOrdinaryReleaseReachesEveryStage(t *testing.T) {
	r := run(t, shop(t), "releases")
	if len(r.Findings) != 0 {
		t.Fatalf("findings:\n%s", codes(r))
	}
	rr := releaseOf(r, "an ordinary monday")
	if rr.Reached["dev"] != "1m0s" || rr.Reached["prod"] == "" || rr.Verified["prod"] == "" {
		t.Fatalf("release %+v", rr)
	}
}

// availabilityStrategy All with requiredSoakTime more than two stages deep: ListFreightFromWarehouse
// never lists the Freight (akuity/kargo#4586).
func TestAnAllJoinWithASoakNeverListsTheFreight(t *testing.T) {
	soak := &metav1.Duration{Duration: time.Hour}
	files := chain(t, map[string]kargoapi.FreightSources{
		"dev":     {Direct: true},
		"staging": {Stages: []string{"dev"}},
		"p1":      {Stages: []string{"staging"}},
		"p2":      {Stages: []string{"staging"}},
		"join":    {Stages: []string{"p1", "p2"}, AvailabilityStrategy: kargoapi.FreightAvailabilityStrategyAll, RequiredSoakTime: soak},
	}, "dev", "staging", "p1", "p2", "join")
	r := run(t, files, "releases")
	never := withCode(r, "freight-never-available")
	if len(never) != 1 || !strings.HasPrefix(never[0], "join: ") {
		t.Fatalf("findings:\n%s", codes(r))
	}
	mustContain(t, never[0], "never lists the freight", "pkg/api.ListFreightFromWarehouse")
}

// A soak asked of a control-flow Stage: Freight is never current there, and the control-flow
// reconciler runs on events only.
func TestASoakAfterAControlFlowStage(t *testing.T) {
	soak := &metav1.Duration{Duration: time.Hour}
	files := chain(t, map[string]kargoapi.FreightSources{
		"dev":  {Direct: true},
		"prod": {Stages: []string{"gate"}, RequiredSoakTime: soak},
	}, "dev", "prod")
	gate := manifest.Typed(&kargoapi.Stage{
		ObjectMeta: metav1.ObjectMeta{Name: "gate", Namespace: "shop"},
		Spec: kargoapi.StageSpec{RequestedFreight: []kargoapi.FreightRequest{{
			Origin: kargoapi.FreightOrigin{Kind: kargoapi.FreightOriginKindWarehouse, Name: "shop"}, Sources: kargoapi.FreightSources{Stages: []string{"dev"}}}}},
	}, kargoAPI, "Stage")
	files["shop.k8s.yaml"] = append(files["shop.k8s.yaml"], gate)
	r := run(t, files, "releases")
	never := withCode(r, "freight-never-available")
	if len(never) != 1 || !strings.HasPrefix(never[0], "prod: ") {
		t.Fatalf("findings:\n%s", codes(r))
	}
	// ListFreightFromWarehouse counts the soak in dev; IsFreightAvailable asks it of gate
	mustContain(t, never[0], "Stage.IsFreightAvailable refuses", "its soak in gate is 0s of 1h0m0s", "gate is a control-flow stage: it never holds freight current")
	if rr := releaseOf(r, "an ordinary monday"); rr.Verified["gate"] == "" {
		t.Errorf("the control-flow stage verifies the freight: %+v", rr)
	}
}

// A deny window of the stage's Applications: the release on christmas eve is held in Kargo by a
// freeze step whose `if` sees the window (expressions read the simulated clock); without the step,
// Kargo promotes into the window.
func TestAFreezeHoldsTheReleaseOnlyWithItsFailStep(t *testing.T) {
	files := shop(t)
	project := files["fleet.k8s.yaml"][0].(*argoapi.AppProject)
	project.Spec.SyncWindows = argoapi.SyncWindows{{Kind: "deny", Schedule: "0 0 20 12 *", Duration: "336h", TimeZone: "UTC", Applications: []string{"*"}}}
	r := run(t, files, "releases")
	held := withCode(r, "freeze-not-held")
	if len(held) != 2 {
		t.Fatalf("findings:\n%s", codes(r))
	}
	mustContain(t, held[0], "christmas eve", "argo cd refuses the syncs of its applications", `deny "0 0 20 12 *" for 336h (UTC)`, "SyncWindows.CanSync")

	freeze := kargoapi.PromotionStep{As: "freeze-1", Uses: "fail", If: "${{ now().Format('01') == '12' && now().Day() >= 20 }}", Config: cfg(t, map[string]any{"message": "year-end freeze"})}
	for _, o := range files["shop.k8s.yaml"][3:] {
		st := o.(*kargoapi.Stage)
		st.Spec.PromotionTemplate.Spec.Steps = append([]kargoapi.PromotionStep{freeze}, st.Spec.PromotionTemplate.Spec.Steps...)
	}
	r = run(t, files, "releases")
	if len(r.Findings) != 0 {
		t.Fatalf("findings:\n%s", codes(r))
	}
	if rr := releaseOf(r, "christmas eve"); rr.Reached["dev"] != "" {
		t.Errorf("the freeze does not hold: %+v", rr)
	}
}

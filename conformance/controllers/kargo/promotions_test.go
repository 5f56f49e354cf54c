package kargo

import (
	"strings"
	"testing"

	kargoapi "github.com/akuity/kargo/api/v1alpha1"
)

// The shop's stages are promoted on Kargo's engine: real clones, renders, commits and pushes into
// the local repositories, and the syncs of the Applications Argo CD's ApplicationSet controller
// generated. dev goes through every scenario; prod, whose steps differ from dev's only in names
// and values, through the first (stepShape).
func TestEveryScenarioPromotesThroughKargosEngine(t *testing.T) {
	r := run(t, shop(t), "promotions")
	if len(r.Findings) != 0 {
		t.Fatalf("findings:\n%s", codes(r))
	}
	if r.Counted["promotions run"] != len(Scenarios)+1 || len(r.Promotions) != len(Scenarios)+1 {
		t.Fatalf("counted %v", r.Counted)
	}
	var want []string
	for _, sc := range Scenarios {
		want = append(want, "shop/dev "+sc.Name)
	}
	want = append(want, "shop/prod "+Scenarios[0].Name)
	for i, p := range r.Promotions {
		if p.Stage+" "+p.Scenario != want[i] {
			t.Errorf("promotion %d: %s %s, want %s", i, p.Stage, p.Scenario, want[i])
		}
	}
	for _, p := range r.Promotions {
		if p.Phase != "Succeeded" || len(p.Synced) != 1 {
			t.Errorf("%s %s: %s %v synced %v", p.Stage, p.Scenario, p.Phase, p.Steps, p.Synced)
		}
		if !strings.HasPrefix(p.Synced[0], "argocd/shop-") || !strings.HasSuffix(p.Synced[0], "-prod-01") {
			t.Errorf("synced %v", p.Synced)
		}
	}
}

// A selector that matches no Application: Kargo's argocd-update errors.
func TestArgoCDUpdateSelectingNothingFailsThePromotion(t *testing.T) {
	files := shop(t)
	dev := files["shop.k8s.yaml"][3].(*kargoapi.Stage)
	steps := dev.Spec.PromotionTemplate.Spec.Steps
	steps[len(steps)-1] = syncStep(t, "nowhere")
	r := run(t, files, "promotions")
	failed := withCode(r, "promotion-failed")
	if len(failed) != len(Scenarios) {
		t.Fatalf("findings:\n%s", codes(r))
	}
	mustContain(t, failed[0], "first promotion of stage dev", `ends Errored at step "argocd-update"`, "no Argo CD Applications found matching selector",
		"pkg/promotion/runner/builtin.argocdUpdater.Run")
}

// An Application authorized for the stage that its argocd-update does not select stays behind.
func TestApplicationAuthorizedButNotSynced(t *testing.T) {
	files := shop(t)
	files["fleet.k8s.yaml"] = append(files["fleet.k8s.yaml"], argoFor("dev")[2])
	set := files["fleet.k8s.yaml"][len(files["fleet.k8s.yaml"])-1]
	appSetNamed(set, "shop-dev-extra", "shop-extra-{{ .name }}", "elsewhere")
	r := run(t, files, "promotions")
	notSynced := withCode(r, "application-not-synced")
	if len(notSynced) != len(Scenarios) {
		t.Fatalf("findings:\n%s", codes(r))
	}
	mustContain(t, notSynced[0], "application shop-extra-prod-01 is authorized for the stage but its argocd-update does not sync it")
}

// A step that renders a path the release branch does not give the Application: Argo CD finds
// no path at the revision Kargo syncs, and the sync operation fails.
func TestApplicationPathMissingOnTheSyncedRevision(t *testing.T) {
	files := shop(t)
	dev := files["shop.k8s.yaml"][3].(*kargoapi.Stage)
	dev.Spec.PromotionTemplate.Spec.Steps[4] = step(t, "render", "kustomize-build", map[string]any{"path": "./src/base", "outPath": "./out/elsewhere/manifests.yaml"})
	r := run(t, files, "promotions")
	failed := withCode(r, "promotion-failed")
	if len(failed) == 0 {
		t.Fatalf("findings:\n%s", codes(r))
	}
	mustContain(t, failed[0], `at step "argocd-update"`, "prod-01: app path does not exist")
}

// The versions of two generations a constraint accepts, the second reading as a number.
func TestVersionsFor(t *testing.T) {
	for constraint, want := range map[string][2]string{
		"^1.0.0":          {"1.0.0", "1.20"},
		">=3.1.0, <4.0.0": {"3.1.0", "3.21"},
		"^0.1.0":          {"0.1.0", "0.1.1"},
		"":                {"1.0.0", "1.20"},
	} {
		first, second, err := versionsFor(constraint, false)
		if err != nil || first != want[0] || second != want[1] {
			t.Errorf("%q: %s %s %v, want %v", constraint, first, second, err, want)
		}
	}
	if _, second, _ := versionsFor("^1.0.0", true); second != "1.0.1" {
		t.Errorf("strict semvers: %s", second)
	}
}

// A tag the steps do not quote reads as a number once a release's tag looks like one: Kargo's
// kustomize-set-image refuses its config, and only the newer Freight's promotion fails.
func TestUnquotedTagFailsOnlyWhenTheVersionReadsAsANumber(t *testing.T) {
	files := shop(t)
	dev := files["shop.k8s.yaml"][3].(*kargoapi.Stage)
	dev.Spec.PromotionTemplate.Spec.Steps[3] = step(t, "set-image", "kustomize-set-image",
		map[string]any{"path": "./src/base", "images": []any{map[string]any{"image": image, "tag": "${{ imageFrom('" + image + "').Tag }}"}}})
	r := run(t, files, "promotions")
	failed := withCode(r, "promotion-failed")
	if len(failed) != 1 {
		t.Fatalf("findings:\n%s", codes(r))
	}
	mustContain(t, failed[0], "newer Freight", `at step "kustomize-set-image"`, "images.0.tag: Invalid type. Expected: string, given: number",
		"builtin.kustomizeImageSetter.Run")
}

package kargo

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	kargoapi "github.com/akuity/kargo/api/v1alpha1"
	argoapi "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/internal/manifest"
)

// waves is the shop in two waves, early and broad, each a Stage rendering the folders of its
// clusters (rings says which) and an ApplicationSet generating shop-<cluster> per cluster of its ring.
func waves(t *testing.T, rings map[string]string) map[string][]manifest.Object {
	objs := []manifest.Object{kargoProject("24h"), projectConfig("early", "broad"), warehouse()}
	fleet := argoFor()[:1] // the AppProject; the cluster Secrets carry their ring
	for _, wave := range []string{"early", "broad"} {
		steps := renderSteps(t, wave)[:4]
		for _, cluster := range []string{"prod-01", "prod-02"} {
			if rings[cluster] == wave {
				steps = append(steps, step(t, "render-"+cluster, "kustomize-build", map[string]any{"path": "./src/base", "outPath": "./out/" + cluster + "/manifests.yaml"}))
			}
		}
		steps = append(steps, renderSteps(t, wave)[5:]...)
		objs = append(objs, stage(wave, append(steps, syncStep(t, wave)), kargoapi.FreightSources{Direct: true}))
		set := argoFor(wave)[2].(*argoapi.ApplicationSet)
		set.Spec.Generators[0].Clusters.Selector = metav1.LabelSelector{MatchLabels: map[string]string{"ring": wave}}
		set.Spec.Template.Name = "shop-{{ .name }}"
		fleet = append(fleet, set)
	}
	for _, cluster := range []string{"prod-01", "prod-02"} {
		fleet = append(fleet, manifest.Typed(&corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Name: "cluster-" + cluster, Namespace: "argocd", Labels: map[string]string{"argocd.argoproj.io/secret-type": "cluster", "ring": rings[cluster]}},
			StringData: map[string]string{"name": cluster, "server": "https://" + cluster + ".example.com"},
		}, "v1", "Secret"))
	}
	return map[string][]manifest.Object{"shop.k8s.yaml": objs, "fleet.k8s.yaml": fleet}
}

// A cluster moves from the early wave to the broad one: its Application moves to the broad
// ApplicationSet and branch, whose path it has only once the broad Stage is promoted again.
func TestAClusterMovingWaves(t *testing.T) {
	before := waves(t, map[string]string{"prod-01": "early", "prod-02": "broad"})
	after := waves(t, map[string]string{"prod-01": "broad", "prod-02": "broad"})
	// the early wave has no cluster left, so the library writes no Stage for it (its ApplicationSet
	// generates nothing and deletes its Application)
	after["shop.k8s.yaml"] = append(after["shop.k8s.yaml"][:3], after["shop.k8s.yaml"][4])
	r, err := Run(context.Background(), Options{Manifests: manifest.Dir(t, after), Before: manifest.Dir(t, before), Work: t.TempDir(), Checks: []string{"promotions"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 0 {
		t.Fatalf("findings:\n%s", codes(r))
	}
	if len(r.FleetChange) != 1 || r.FleetChange[0].Application != "argocd/shop-prod-01" ||
		!strings.Contains(r.FleetChange[0].Meanwhile, "rendered/shop/broad holds no prod-01 until its stage's next promotion") {
		t.Fatalf("fleet change %+v", r.FleetChange)
	}
	for _, p := range r.Promotions {
		if p.Stage == "shop/broad" && p.Phase == "Succeeded" && strings.Join(p.Synced, ",") == "argocd/shop-prod-01,argocd/shop-prod-02" {
			return
		}
	}
	t.Fatalf("the broad stage never syncs both clusters: %+v", r.Promotions)
}

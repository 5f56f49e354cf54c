package argocd

import (
	"context"
	"strings"
	"testing"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/internal/manifest"
)

// waves is a platform of two prod waves by the label ring, each generating <app>-<cluster>.
func waves(rings map[string]string) map[string][]manifestObject {
	var secrets []manifestObject
	for _, name := range []string{"prod-01", "prod-02"} {
		s := clusterSecret()
		s.Name, s.StringData["name"], s.StringData["server"] = "cluster-"+name, name, "https://"+name+".example.com"
		s.Labels["ring"] = rings[name]
		secrets = append(secrets, s)
	}
	project := hubProject()
	project.Spec.Destinations[0].Name = "*"
	return map[string][]manifestObject{
		"shop.k8s.yaml": objs(project, appSet("shop-early", "shop", map[string]string{"ring": "early"}, "shop-{{ .name }}"),
			appSet("shop-broad", "shop", map[string]string{"ring": "broad"}, "shop-{{ .name }}")),
		"fleet.k8s.yaml": secrets,
	}
}

func manifestDir(t *testing.T, files map[string][]manifestObject) string {
	t.Helper()
	return manifest.Dir(t, files)
}

func runChange(t *testing.T, before, after map[string][]manifestObject) *Report {
	t.Helper()
	r, err := Run(context.Background(), Options{Manifests: manifestDir(t, after), Before: manifestDir(t, before), Namespace: "argocd"})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Two clusters swapping waves deadlock both ApplicationSets for good.
func TestWaveSwapDeadlocksBothApplicationSets(t *testing.T) {
	r := runChange(t, waves(map[string]string{"prod-01": "early", "prod-02": "broad"}), waves(map[string]string{"prod-01": "broad", "prod-02": "early"}))
	conflicts := withCode(r, "applicationset-ownership-conflict")
	if len(conflicts) != 2 {
		t.Fatalf("want a conflict on each ApplicationSet, got %s", dump(r))
	}
	for _, f := range conflicts {
		mustContain(t, f.Message, "is already owned by another ApplicationSet controller")
		if !strings.HasSuffix(f.Upstream, "ApplicationSetReconciler.createOrUpdateInCluster") {
			t.Errorf("upstream %s", f.Upstream)
		}
	}
	if len(withCode(r, "applicationset-application-outdated")) != 2 {
		t.Errorf("findings %s", dump(r))
	}
}

// A one-way move clears once the old owner deletes: its next reconcile no longer generates it.
func TestOneWayMoveSettles(t *testing.T) {
	r := runChange(t, waves(map[string]string{"prod-01": "early", "prod-02": "broad"}), waves(map[string]string{"prod-01": "broad", "prod-02": "broad"}))
	noFindings(t, r)
	if r.Counted["fleetChangeApplicationsChecked"] != 2 || r.Counted["fleetChangeReconcileRounds"] < 2 {
		t.Errorf("counted %v", r.Counted)
	}
}

// An ApplicationSet removed by the change takes its Applications along (no finalizer: Kubernetes'
// garbage collector), and the new one creates them.
func TestRemovedApplicationSetsApplicationsAreCollected(t *testing.T) {
	after := waves(map[string]string{"prod-01": "broad", "prod-02": "broad"})
	after["shop.k8s.yaml"] = after["shop.k8s.yaml"][:1]
	after["shop.k8s.yaml"] = append(after["shop.k8s.yaml"], appSet("shop-all", "shop", map[string]string{"ring": "broad"}, "shop-{{ .name }}"))
	r := runChange(t, waves(map[string]string{"prod-01": "early", "prod-02": "broad"}), after)
	noFindings(t, r)
	if r.Counted["fleetChangeApplicationsCollected"] != 2 {
		t.Errorf("counted %v", r.Counted)
	}
}

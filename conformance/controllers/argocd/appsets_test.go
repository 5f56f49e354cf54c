package argocd

import (
	"context"
	"strings"
	"testing"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/internal/manifest"
)

func TestApplicationSetsAreGeneratedByArgoCD(t *testing.T) {
	files := map[string][]manifestObject{
		"shop.k8s.yaml":  objs(hubProject(), appSet("shop-prod", "shop", map[string]string{"ring": "early"}, "shop-{{ .name }}")),
		"fleet.k8s.yaml": objs(clusterSecret()),
	}
	r := runOn(t, files, nil)
	noFindings(t, r)
	if r.Counted["applicationsGenerated"] != 1 || r.Counted["applicationsChecked"] != 1 {
		t.Errorf("counted %v", r.Counted)
	}
	fleets, err := LoadFleets(manifestDir(t, files), "argocd")
	if err != nil {
		t.Fatal(err)
	}
	apps, err := InstanceApplications(context.Background(), fleets[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(apps) != 1 || apps[0].Name != "shop-prod-01" || apps[0].Spec.Source.Path != "prod-01" || controllerOf(&apps[0]) != "shop-prod" {
		t.Fatalf("generated %+v", apps)
	}
}

// Argo CD drops both Applications of a name an ApplicationSet generates twice: validateGeneratedApplications
// keys its errors by the qualified name, and Reconcile keeps only names without an error.
func TestOneNameGeneratedTwiceIsDroppedEntirely(t *testing.T) {
	files := map[string][]manifestObject{
		"shop.k8s.yaml":  objs(hubProject(), listAppSet("shop-list", "shop-a", "shop-a", "shop-b")),
		"fleet.k8s.yaml": objs(clusterSecret()),
	}
	r := runOn(t, files, nil)
	f := onlyFinding(t, r, "application-name-conflict")
	mustContain(t, f.Message, "writes no application argocd/shop-a", "duplicate name: shop-a")
	if !strings.HasSuffix(f.Upstream, "ApplicationSetReconciler.validateGeneratedApplications") || f.Path != "/spec/template/metadata/name" {
		t.Errorf("finding %+v", f)
	}
	if r.Counted["applicationsGenerated"] != 1 {
		t.Errorf("argo cd writes shop-b alone: counted %v", r.Counted)
	}
}

// Two ApplicationSets that generate one name: the second to reconcile is refused by SetControllerReference.
func TestTwoApplicationSetsGeneratingOneName(t *testing.T) {
	files := map[string][]manifestObject{
		"shop.k8s.yaml": objs(hubProject(), appSet("shop-a", "shop", map[string]string{"ring": "early"}, "shop-{{ .name }}"),
			appSet("shop-b", "shop", map[string]string{"ring": "early"}, "shop-{{ .name }}")),
		"fleet.k8s.yaml": objs(clusterSecret()),
	}
	f := onlyFinding(t, runOn(t, files, nil), "application-name-conflict")
	if f.Name != "shop-b" || !strings.HasSuffix(f.Upstream, "ApplicationSetReconciler.createOrUpdateInCluster") {
		t.Errorf("finding %+v", f)
	}
	mustContain(t, f.Message, "fails to reconcile applicationset shop-b", "argocd/shop-prod-01 is already owned by another ApplicationSet controller shop-a")
}

func TestGeneratedApplicationNamingAMissingProject(t *testing.T) {
	files := map[string][]manifestObject{
		"shop.k8s.yaml":  objs(hubProject(), appSet("shop-prod", "checkout", map[string]string{"ring": "early"}, "shop-{{ .name }}")),
		"fleet.k8s.yaml": objs(clusterSecret()),
	}
	f := onlyFinding(t, runOn(t, files, nil), "project-not-found")
	if f.Kind != "ApplicationSet" || f.Path != "/spec/template/spec/project" {
		t.Errorf("finding %+v", f)
	}
	mustContain(t, f.Message, "references project checkout which does not exist")
}

// A hub installed in another namespace (the library's ArgoCdTopology namespace) is judged there:
// Argo CD reads its cluster Secrets only in its own namespace, so judged in argocd the
// ApplicationSet generated nothing and nothing of it was checked, silently.
func TestTheHubRunsWhereItsProjectsAre(t *testing.T) {
	files := map[string][]manifestObject{
		"shop.k8s.yaml":  objs(inNamespace("gitops", hubProject()), inNamespace("gitops", appSet("shop-prod", "shop", map[string]string{"ring": "early"}, "shop-{{ .name }}"))),
		"fleet.k8s.yaml": objs(inNamespace("gitops", clusterSecret())),
	}
	r, err := Run(context.Background(), Options{Manifests: manifest.Dir(t, files)})
	if err != nil {
		t.Fatal(err)
	}
	noFindings(t, r)
	if r.Counted["applicationsGenerated"] != 1 {
		t.Errorf("the hub in gitops generates shop-prod-01: counted %v", r.Counted)
	}
	// told that Argo CD runs in argocd, it finds no cluster Secret there, and says so
	f := onlyFinding(t, runOn(t, files, nil), "applicationset-generates-nothing")
	mustContain(t, f.Message, "applicationset shop-prod", "no cluster secret is in argocd")
	if f.Name != "shop-prod" || !strings.HasSuffix(f.Upstream, "template.GenerateApplications") {
		t.Errorf("finding %+v", f)
	}
}

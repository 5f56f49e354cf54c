package argocd

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/internal/manifest"
)

func hub(project *v1alpha1.AppProject, apps ...manifestObject) map[string][]manifestObject {
	return map[string][]manifestObject{"shop.k8s.yaml": append(objs(project), apps...), "fleet.k8s.yaml": objs(clusterSecret())}
}

func TestApplicationArgoCDPermits(t *testing.T) {
	r := runOn(t, hub(hubProject(), application()), nil)
	noFindings(t, r)
	if r.Counted["applicationsChecked"] != 1 || r.Counted["createdNamespacesChecked"] != 1 {
		t.Errorf("counted %v", r.Counted)
	}
}

func TestApplicationRepoNotPermitted(t *testing.T) {
	app := application()
	app.Spec.Source.RepoURL = "https://github.com/acme/other.git"
	f := onlyFinding(t, runOn(t, hub(hubProject(), app), nil), "source-repo-not-permitted")
	if f.Kind != "Application" || f.Path != "/spec/source/repoURL" {
		t.Errorf("finding on %s %s", f.Kind, f.Path)
	}
	mustContain(t, f.Message, "application repo https://github.com/acme/other.git is not permitted in project 'shop'")
	if !strings.HasSuffix(f.Upstream, "AppProject.IsSourcePermitted") {
		t.Errorf("upstream %s", f.Upstream)
	}
}

func TestApplicationDestinationNotPermitted(t *testing.T) {
	project := hubProject()
	project.Spec.Destinations[0].Namespace = "payments"
	f := onlyFinding(t, runOn(t, hub(project, application()), nil), "destination-not-permitted")
	mustContain(t, f.Message, "destination server 'prod-01' and namespace 'shop' do not match")
	if !strings.HasSuffix(f.Upstream, "AppProject.IsDestinationPermitted") {
		t.Errorf("upstream %s", f.Upstream)
	}
}

func TestApplicationClusterNotFound(t *testing.T) {
	app := application()
	app.Spec.Destination.Name = "prod-02"
	f := onlyFinding(t, runOn(t, hub(hubProject(), app), nil), "cluster-not-found")
	mustContain(t, f.Message, "there are no clusters with this name: prod-02")
	if !strings.HasSuffix(f.Upstream, "util/argo.GetDestinationCluster") {
		t.Errorf("upstream %s", f.Upstream)
	}
}

func TestApplicationProjectNotFound(t *testing.T) {
	app := application()
	app.Spec.Project = "checkout"
	f := onlyFinding(t, runOn(t, hub(hubProject(), app), nil), "project-not-found")
	mustContain(t, f.Message, `project "checkout"`)
}

func TestCreatedNamespaceNotPermitted(t *testing.T) {
	project := hubProject()
	project.Spec.ClusterResourceWhitelist[0].Name = "payments"
	f := onlyFinding(t, runOn(t, hub(project, application()), nil), "namespace-not-permitted")
	if f.Path != "/spec/syncPolicy/syncOptions" {
		t.Errorf("path %s", f.Path)
	}
	mustContain(t, f.Message, "creates namespace shop, which project shop does not allow")
	if !strings.HasSuffix(f.Upstream, "AppProject.IsGroupKindNamePermitted") {
		t.Errorf("upstream %s", f.Upstream)
	}
}

// A cluster with its own Argo CD reads its own AppProject and reaches itself as in-cluster.
func TestPerClusterArgoCDIsItsOwnInstance(t *testing.T) {
	edgeProject := manifest.Typed(&v1alpha1.AppProject{
		ObjectMeta: metav1.ObjectMeta{Name: "shop", Namespace: "argocd-edge"},
		Spec: v1alpha1.AppProjectSpec{
			SourceRepos:              []string{"https://github.com/acme/releases.git"},
			Destinations:             []v1alpha1.ApplicationDestination{{Server: "https://kubernetes.default.svc", Namespace: "shop"}},
			ClusterResourceWhitelist: []v1alpha1.ClusterResourceRestrictionItem{{Group: "", Kind: "Namespace", Name: "shop"}},
		},
	}, argoAPI, "AppProject")
	edgeApp := manifest.Typed(&v1alpha1.Application{
		ObjectMeta: metav1.ObjectMeta{Name: "shop-edge-01", Namespace: "argocd-edge"},
		Spec: v1alpha1.ApplicationSpec{
			Project:     "shop",
			Destination: v1alpha1.ApplicationDestination{Server: "https://kubernetes.default.svc", Namespace: "shop"},
			Source:      &v1alpha1.ApplicationSource{RepoURL: "https://github.com/acme/releases.git", Path: "edge-01"},
			SyncPolicy:  &v1alpha1.SyncPolicy{SyncOptions: v1alpha1.SyncOptions{"CreateNamespace=true"}},
		},
	}, argoAPI, "Application")
	files := hub(hubProject(), application())
	files["shop--edge-01.k8s.yaml"] = objs(edgeProject, edgeApp)
	r := runOn(t, files, nil)
	noFindings(t, r)
	if r.Counted["argoCDInstances"] != 2 || r.Counted["applicationsChecked"] != 2 {
		t.Errorf("counted %v", r.Counted)
	}
	// The same Application on the hub, whose project allows only prod-01, is refused.
	onHub := edgeApp.DeepCopy()
	onHub.Namespace = "argocd"
	f := onlyFinding(t, runOn(t, hub(hubProject(), application(), onHub), nil), "destination-not-permitted")
	mustContain(t, f.Message, "shop-edge-01")
}

func TestApplicationNamespaceNotPermitted(t *testing.T) {
	app := application()
	app.Namespace = "shop-apps"
	f := onlyFinding(t, runOn(t, hub(hubProject(), app), nil), "application-namespace-not-permitted")
	if f.Namespace != "shop-apps" || f.Path != "/metadata/namespace" {
		t.Errorf("finding on %s %s", f.Namespace, f.Path)
	}
	mustContain(t, f.Message, "shop-prod-01")
	// sourceNamespaces lets the project's Applications live there.
	project := hubProject()
	project.Spec.SourceNamespaces = []string{"shop-apps"}
	noFindings(t, runOn(t, hub(project, app), nil))
}

package main

import (
	"strings"
	"testing"
)

func hub(project, app string) map[string]string {
	return map[string]string{"shop.k8s.yaml": docs(project, app), "fleet.k8s.yaml": clusterSecret}
}

func TestApplicationArgoCDPermits(t *testing.T) {
	r := runOn(t, hub(hubProject, application), nil)
	noFindings(t, r)
	if r.Counted["applicationsChecked"] != 1 || r.Counted["createdNamespacesChecked"] != 1 {
		t.Errorf("counted %v", r.Counted)
	}
}

func TestApplicationRepoNotPermitted(t *testing.T) {
	app := strings.Replace(application, "acme/releases.git", "acme/other.git", 1)
	f := onlyFinding(t, runOn(t, hub(hubProject, app), nil), "source-repo-not-permitted")
	if f.Kind != "Application" || f.Path != "/spec/source/repoURL" {
		t.Errorf("finding on %s %s", f.Kind, f.Path)
	}
	mustContain(t, f.Message, "application repo https://github.com/acme/other.git is not permitted in project 'shop'")
	if !strings.HasSuffix(f.Upstream, "AppProject.IsSourcePermitted") {
		t.Errorf("upstream %s", f.Upstream)
	}
}

func TestApplicationDestinationNotPermitted(t *testing.T) {
	project := strings.Replace(hubProject, "{name: prod-01, namespace: shop}", "{name: prod-01, namespace: payments}", 1)
	f := onlyFinding(t, runOn(t, hub(project, application), nil), "destination-not-permitted")
	mustContain(t, f.Message, "destination server 'prod-01' and namespace 'shop' do not match")
	if !strings.HasSuffix(f.Upstream, "AppProject.IsDestinationPermitted") {
		t.Errorf("upstream %s", f.Upstream)
	}
}

func TestApplicationClusterNotFound(t *testing.T) {
	app := strings.Replace(application, "{name: prod-01, namespace: shop}", "{name: prod-02, namespace: shop}", 1)
	f := onlyFinding(t, runOn(t, hub(hubProject, app), nil), "cluster-not-found")
	mustContain(t, f.Message, "there are no clusters with this name: prod-02")
	if !strings.HasSuffix(f.Upstream, "util/argo.GetDestinationCluster") {
		t.Errorf("upstream %s", f.Upstream)
	}
}

func TestApplicationProjectNotFound(t *testing.T) {
	app := strings.Replace(application, "project: shop", "project: checkout", 1)
	f := onlyFinding(t, runOn(t, hub(hubProject, app), nil), "project-not-found")
	mustContain(t, f.Message, `project "checkout"`)
}

func TestCreatedNamespaceNotPermitted(t *testing.T) {
	project := strings.Replace(hubProject, "{group: \"\", kind: Namespace, name: shop}", "{group: \"\", kind: Namespace, name: payments}", 1)
	f := onlyFinding(t, runOn(t, hub(project, application), nil), "namespace-not-permitted")
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
	edge := `
apiVersion: argoproj.io/v1alpha1
kind: AppProject
metadata: {name: shop, namespace: argocd-edge}
spec:
  sourceRepos: [https://github.com/acme/releases.git]
  destinations: [{server: "https://kubernetes.default.svc", namespace: shop}]
  clusterResourceWhitelist: [{group: "", kind: Namespace, name: shop}]
---
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: shop-edge-01, namespace: argocd-edge}
spec:
  project: shop
  destination: {server: "https://kubernetes.default.svc", namespace: shop}
  source: {repoURL: https://github.com/acme/releases.git, path: edge-01}
  syncPolicy: {syncOptions: [CreateNamespace=true]}
`
	files := hub(hubProject, application)
	files["shop--edge-01.k8s.yaml"] = edge
	r := runOn(t, files, nil)
	noFindings(t, r)
	if r.Counted["argoCDInstances"] != 2 || r.Counted["applicationsChecked"] != 2 {
		t.Errorf("counted %v", r.Counted)
	}
	// The same Application on the hub, whose project allows only prod-01, is refused.
	files["shop.k8s.yaml"] = docs(hubProject, application, strings.ReplaceAll(edge[strings.Index(edge, "kind: Application\n")-len("apiVersion: argoproj.io/v1alpha1\n"):], "argocd-edge", "argocd"))
	delete(files, "shop--edge-01.k8s.yaml")
	f := onlyFinding(t, runOn(t, files, nil), "destination-not-permitted")
	mustContain(t, f.Message, "shop-edge-01")
}

func TestApplicationNamespaceNotPermitted(t *testing.T) {
	app := strings.Replace(application, "namespace: argocd}", "namespace: shop-apps}", 1)
	f := onlyFinding(t, runOn(t, hub(hubProject, app), nil), "application-namespace-not-permitted")
	if f.Namespace != "shop-apps" || f.Path != "/metadata/namespace" {
		t.Errorf("finding on %s %s", f.Namespace, f.Path)
	}
	mustContain(t, f.Message, "shop-prod-01")
	// sourceNamespaces lets the project's Applications live there.
	project := hubProject + "  sourceNamespaces: [shop-apps]\n"
	noFindings(t, runOn(t, hub(project, app), nil))
}

package main

import (
	"strings"
	"testing"
)

// repositorySecret is the release repository Secret the library writes for a GitHub App.
const repositorySecret = `
apiVersion: v1
kind: Secret
metadata:
  name: shop-release-repo
  namespace: argocd
  labels: {argocd.argoproj.io/secret-type: repository}
stringData:
  type: git
  url: https://github.com/acme/releases.git
  project: shop
  githubAppID: "123456"
  githubAppInstallationID: "7890123"
`

func TestRepositorySecretArgoCDReads(t *testing.T) {
	r := runOn(t, map[string]string{"shop.k8s.yaml": repositorySecret}, nil)
	noFindings(t, r)
	if r.Counted["repositorySecrets"] != 1 {
		t.Errorf("counted %v", r.Counted)
	}
}

func TestRepositorySecretArgoCDCannotRead(t *testing.T) {
	bad := strings.Replace(repositorySecret, `githubAppID: "123456"`, `githubAppID: "12a456"`, 1)
	f := onlyFinding(t, runOn(t, map[string]string{"shop.k8s.yaml": bad}, nil), "repository-secret-invalid")
	if f.Kind != "Secret" || f.Name != "shop-release-repo" || f.Path != "/stringData" {
		t.Errorf("finding on %s %s %s", f.Kind, f.Name, f.Path)
	}
	mustContain(t, f.Message, "cannot read repository secret shop-release-repo", `"12a456"`, `project "shop"`)
	if !strings.HasSuffix(f.Upstream, "util/db.ArgoDB.GetRepository") {
		t.Errorf("upstream %s", f.Upstream)
	}
}

func TestRepositorySecretInAnotherNamespaceIsNotRead(t *testing.T) {
	elsewhere := strings.Replace(repositorySecret, "namespace: argocd", "namespace: shop", 1)
	f := onlyFinding(t, runOn(t, map[string]string{"shop.k8s.yaml": elsewhere}, nil), "repository-secret-not-read")
	if f.Path != "/metadata/namespace" {
		t.Errorf("path %s", f.Path)
	}
	mustContain(t, f.Message, "argo cd (namespace argocd) does not use repository secret shop-release-repo (namespace shop)")
}

func TestRepositorySecretAnsweredByAnUnscopedOneIsNotRead(t *testing.T) {
	unscoped := strings.Replace(strings.Replace(repositorySecret, "  project: shop\n", "", 1), "shop-release-repo", "releases", 1)
	elsewhere := strings.Replace(repositorySecret, "namespace: argocd", "namespace: shop", 1)
	r := runOn(t, map[string]string{"shop.k8s.yaml": docs(unscoped, elsewhere)}, nil)
	f := onlyFinding(t, r, "repository-secret-not-read")
	if f.Name != "shop-release-repo" {
		t.Errorf("finding on %s", f.Name)
	}
}

func TestRepoCredsSecretArgoCDCannotRead(t *testing.T) {
	creds := strings.Replace(strings.Replace(repositorySecret, "secret-type: repository", "secret-type: repo-creds", 1),
		"url: https://github.com/acme/releases.git", "url: https://github.com/acme", 1)
	noFindings(t, runOn(t, map[string]string{"fleet.k8s.yaml": creds}, nil))
	bad := strings.Replace(creds, `githubAppInstallationID: "7890123"`, `githubAppInstallationID: "many"`, 1)
	r := runOn(t, map[string]string{"fleet.k8s.yaml": bad}, nil)
	f := onlyFinding(t, r, "repo-creds-secret-invalid")
	mustContain(t, f.Message, "cannot read repo-creds secret shop-release-repo", `"many"`)
	if r.Counted["repoCredsSecrets"] != 1 || r.Counted["repositorySecrets"] != 0 {
		t.Errorf("counted %v", r.Counted)
	}
}

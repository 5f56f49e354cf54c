package argocd

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/internal/manifest"
)

// repositorySecret is the release repository Secret the library writes for a GitHub App.
func repositorySecret() *corev1.Secret {
	return manifest.Typed(&corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "shop-release-repo", Namespace: "argocd", Labels: map[string]string{"argocd.argoproj.io/secret-type": "repository"}},
		StringData: map[string]string{
			"type": "git", "url": "https://github.com/acme/releases.git", "project": "shop",
			"githubAppID": "123456", "githubAppInstallationID": "7890123",
		},
	}, "v1", "Secret")
}

func shopFile(o ...manifestObject) map[string][]manifestObject {
	return map[string][]manifestObject{"shop.k8s.yaml": objs(o...)}
}

func TestRepositorySecretArgoCDReads(t *testing.T) {
	r := runOn(t, shopFile(repositorySecret()), nil)
	noFindings(t, r)
	if r.Counted["repositorySecrets"] != 1 {
		t.Errorf("counted %v", r.Counted)
	}
}

func TestRepositorySecretArgoCDCannotRead(t *testing.T) {
	bad := repositorySecret()
	bad.StringData["githubAppID"] = "12a456"
	f := onlyFinding(t, runOn(t, shopFile(bad), nil), "repository-secret-invalid")
	if f.Kind != "Secret" || f.Name != "shop-release-repo" || f.Path != "/stringData" {
		t.Errorf("finding on %s %s %s", f.Kind, f.Name, f.Path)
	}
	mustContain(t, f.Message, "cannot read repository secret shop-release-repo", `"12a456"`, `project "shop"`)
	if !strings.HasSuffix(f.Upstream, "util/db.ArgoDB.GetRepository") {
		t.Errorf("upstream %s", f.Upstream)
	}
}

func TestRepositorySecretInAnotherNamespaceIsNotRead(t *testing.T) {
	elsewhere := repositorySecret()
	elsewhere.Namespace = "shop"
	f := onlyFinding(t, runOn(t, shopFile(elsewhere), nil), "repository-secret-not-read")
	if f.Path != "/metadata/namespace" {
		t.Errorf("path %s", f.Path)
	}
	mustContain(t, f.Message, "argo cd (namespace argocd) does not use repository secret shop-release-repo (namespace shop)")
}

func TestRepositorySecretAnsweredByAnUnscopedOneIsNotRead(t *testing.T) {
	unscoped := repositorySecret()
	unscoped.Name = "releases"
	delete(unscoped.StringData, "project")
	elsewhere := repositorySecret()
	elsewhere.Namespace = "shop"
	f := onlyFinding(t, runOn(t, shopFile(unscoped, elsewhere), nil), "repository-secret-not-read")
	if f.Name != "shop-release-repo" {
		t.Errorf("finding on %s", f.Name)
	}
}

func TestRepoCredsSecretArgoCDCannotRead(t *testing.T) {
	creds := repositorySecret()
	creds.Labels["argocd.argoproj.io/secret-type"] = "repo-creds"
	creds.StringData["url"] = "https://github.com/acme"
	noFindings(t, runOn(t, map[string][]manifestObject{"fleet.k8s.yaml": objs(creds)}, nil))
	bad := creds.DeepCopy()
	bad.StringData["githubAppInstallationID"] = "many"
	r := runOn(t, map[string][]manifestObject{"fleet.k8s.yaml": objs(bad)}, nil)
	f := onlyFinding(t, r, "repo-creds-secret-invalid")
	mustContain(t, f.Message, "cannot read repo-creds secret shop-release-repo", `"many"`)
	if r.Counted["repoCredsSecrets"] != 1 || r.Counted["repositorySecrets"] != 0 {
		t.Errorf("counted %v", r.Counted)
	}
}

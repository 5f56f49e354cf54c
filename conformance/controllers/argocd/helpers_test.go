package argocd

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	log "github.com/sirupsen/logrus"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/internal/manifest"
)

const argoAPI = "argoproj.io/v1alpha1"

// hubProject is an AppProject that permits the hub's fixture Application; tests change one thing.
func hubProject() *v1alpha1.AppProject {
	return manifest.Typed(&v1alpha1.AppProject{
		ObjectMeta: metav1.ObjectMeta{Name: "shop", Namespace: "argocd"},
		Spec: v1alpha1.AppProjectSpec{
			SourceRepos:              []string{"https://github.com/acme/releases.git"},
			Destinations:             []v1alpha1.ApplicationDestination{{Name: "prod-01", Namespace: "shop"}},
			ClusterResourceWhitelist: []v1alpha1.ClusterResourceRestrictionItem{{Group: "", Kind: "Namespace", Name: "shop"}},
		},
	}, argoAPI, "AppProject")
}

// clusterSecret is the cluster Secret of prod-01, written as the library writes it (stringData).
func clusterSecret() *corev1.Secret {
	return manifest.Typed(&corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster-prod-01", Namespace: "argocd", Labels: map[string]string{"argocd.argoproj.io/secret-type": "cluster", "ring": "early"}},
		StringData: map[string]string{
			"name":   "prod-01",
			"server": "https://prod-01.example.com",
			"config": `{"tlsClientConfig":{"insecure":false}}`,
		},
	}, "v1", "Secret")
}

func application() *v1alpha1.Application {
	return manifest.Typed(&v1alpha1.Application{
		ObjectMeta: metav1.ObjectMeta{Name: "shop-prod-01", Namespace: "argocd"},
		Spec: v1alpha1.ApplicationSpec{
			Project:     "shop",
			Destination: v1alpha1.ApplicationDestination{Name: "prod-01", Namespace: "shop"},
			Source:      &v1alpha1.ApplicationSource{RepoURL: "https://github.com/acme/releases.git", Path: "prod-01", TargetRevision: "main"},
			SyncPolicy:  &v1alpha1.SyncPolicy{SyncOptions: v1alpha1.SyncOptions{"CreateNamespace=true"}},
		},
	}, argoAPI, "Application")
}

// appSet generates one Application per cluster Secret its selector picks, named
// <name>-<cluster>, aimed at the cluster.
func appSet(name, project string, labels map[string]string, appName string) *v1alpha1.ApplicationSet {
	return manifest.Typed(&v1alpha1.ApplicationSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "argocd"},
		Spec: v1alpha1.ApplicationSetSpec{
			GoTemplate: true,
			Generators: []v1alpha1.ApplicationSetGenerator{{Clusters: &v1alpha1.ClusterGenerator{Selector: metav1.LabelSelector{MatchLabels: labels}}}},
			Template: v1alpha1.ApplicationSetTemplate{
				ApplicationSetTemplateMeta: v1alpha1.ApplicationSetTemplateMeta{Name: appName},
				Spec: v1alpha1.ApplicationSpec{
					Project:     project,
					Destination: v1alpha1.ApplicationDestination{Name: "{{ .name }}", Namespace: "shop"},
					Source:      &v1alpha1.ApplicationSource{RepoURL: "https://github.com/acme/releases.git", Path: "{{ .name }}", TargetRevision: "rendered/" + name},
				},
			},
		},
	}, argoAPI, "ApplicationSet")
}

// listAppSet generates one Application per list element, named by the element's "app".
func listAppSet(name string, apps ...string) *v1alpha1.ApplicationSet {
	var elements []apiextensionsv1.JSON
	for _, a := range apps {
		elements = append(elements, apiextensionsv1.JSON{Raw: []byte(`{"app":"` + a + `"}`)})
	}
	return manifest.Typed(&v1alpha1.ApplicationSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "argocd"},
		Spec: v1alpha1.ApplicationSetSpec{
			GoTemplate: true,
			Generators: []v1alpha1.ApplicationSetGenerator{{List: &v1alpha1.ListGenerator{Elements: elements}}},
			Template: v1alpha1.ApplicationSetTemplate{
				ApplicationSetTemplateMeta: v1alpha1.ApplicationSetTemplateMeta{Name: "{{ .app }}"},
				Spec: v1alpha1.ApplicationSpec{
					Project:     "shop",
					Destination: v1alpha1.ApplicationDestination{Name: "prod-01", Namespace: "shop"},
					Source:      &v1alpha1.ApplicationSource{RepoURL: "https://github.com/acme/releases.git", Path: "prod-01"},
				},
			},
		},
	}, argoAPI, "ApplicationSet")
}

// inNamespace moves an object to another namespace.
func inNamespace[T interface {
	manifest.Object
	metav1.Object
}](ns string, obj T) T {
	obj.SetNamespace(ns)
	return obj
}

// objs is a file's objects.
func objs(o ...manifest.Object) []manifest.Object { return o }

// manifestObject is an object a test writes.
type manifestObject = manifest.Object

// runOn writes files (name -> objects) to a manifests directory and runs the checks on it.
func runOn(t *testing.T, files map[string][]manifestObject, now *time.Time) *Report {
	t.Helper()
	r, err := Run(context.Background(), Options{Manifests: manifest.Dir(t, files), Namespace: "argocd", Now: now})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func withCode(r *Report, code string) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

// onlyFinding asserts the report has exactly one finding, of code, and returns it.
func onlyFinding(t *testing.T, r *Report, code string) Finding {
	t.Helper()
	if len(r.Findings) != 1 || r.Findings[0].Code != code {
		t.Fatalf("want one %s finding, got %s", code, dump(r))
	}
	return r.Findings[0]
}

func noFindings(t *testing.T, r *Report) {
	t.Helper()
	if len(r.Findings) != 0 {
		t.Fatalf("want no findings, got %s", dump(r))
	}
}

func dump(r *Report) string {
	var b bytes.Buffer
	_ = r.Write(&b)
	return b.String()
}

func mustContain(t *testing.T, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%q does not contain %q", s, p)
		}
	}
}

func TestMain(m *testing.M) {
	log.SetOutput(io.Discard) // Argo CD's informers and controllers log through logrus
	os.Exit(m.Run())
}

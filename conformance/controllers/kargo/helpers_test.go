package kargo

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	log "github.com/sirupsen/logrus"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	kargoapi "github.com/akuity/kargo/api/v1alpha1"
	argoapi "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/internal/manifest"
)

const (
	kargoAPI   = "kargo.akuity.io/v1alpha1"
	releases   = "https://github.com/acme/releases.git"
	deployRepo = "https://github.com/acme/shop-deploy.git"
	image      = "ghcr.io/acme/shop"
)

func TestMain(m *testing.M) {
	log.SetOutput(io.Discard) // Argo CD's controllers log through logrus
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

func cfg(t testing.TB, v any) *apiextensionsv1.JSON {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return &apiextensionsv1.JSON{Raw: data}
}

func kargoProject(lead string) *kargoapi.Project {
	return manifest.Typed(&kargoapi.Project{ObjectMeta: metav1.ObjectMeta{Name: "shop", Annotations: map[string]string{leadTimeAnnotation: lead}}}, kargoAPI, "Project")
}

func projectConfig(auto ...string) *kargoapi.ProjectConfig {
	pc := &kargoapi.ProjectConfig{ObjectMeta: metav1.ObjectMeta{Name: "shop", Namespace: "shop"}}
	for _, s := range auto {
		pc.Spec.PromotionPolicies = append(pc.Spec.PromotionPolicies, kargoapi.PromotionPolicy{StageSelector: &kargoapi.PromotionPolicySelector{Name: s}, AutoPromotionEnabled: true})
	}
	return manifest.Typed(pc, kargoAPI, "ProjectConfig")
}

func warehouse() *kargoapi.Warehouse {
	return manifest.Typed(&kargoapi.Warehouse{
		ObjectMeta: metav1.ObjectMeta{Name: "shop", Namespace: "shop"},
		Spec: kargoapi.WarehouseSpec{InternalSubscriptions: []kargoapi.RepoSubscription{
			{Image: &kargoapi.ImageSubscription{RepoURL: image, Constraint: "^1.0.0", ImageSelectionStrategy: kargoapi.ImageSelectionStrategySemVer}},
			{Git: &kargoapi.GitSubscription{RepoURL: deployRepo, Branch: "main", CommitSelectionStrategy: kargoapi.CommitSelectionStrategyNewestFromBranch}},
		}},
	}, kargoAPI, "Warehouse")
}

func step(t testing.TB, as, uses string, config any) kargoapi.PromotionStep {
	return kargoapi.PromotionStep{As: as, Uses: uses, Config: cfg(t, config)}
}

// renderSteps render the deploy repository's base with the Freight's image into the stage's
// release branch: the shape of the library's steps.
func renderSteps(t testing.TB, stage string) []kargoapi.PromotionStep {
	return []kargoapi.PromotionStep{
		step(t, "clone-source", "git-clone", map[string]any{"repoURL": deployRepo, "checkout": []any{map[string]any{"commit": "${{ quote(commitFrom('" + deployRepo + "').ID) }}", "path": "./src"}}}),
		step(t, "clone-release", "git-clone", map[string]any{"repoURL": releases, "checkout": []any{map[string]any{"branch": "rendered/shop/" + stage, "create": true, "path": "./out"}}}),
		step(t, "clear", "git-clear", map[string]any{"path": "./out"}),
		step(t, "set-image", "kustomize-set-image", map[string]any{"path": "./src/base", "images": []any{map[string]any{"image": image, "tag": "${{ quote(imageFrom('" + image + "').Tag) }}"}}}),
		step(t, "render", "kustomize-build", map[string]any{"path": "./src/base", "outPath": "./out/prod-01/manifests.yaml"}),
		step(t, "commit", "git-commit", map[string]any{"path": "./out", "message": "render shop for " + stage}),
		step(t, "push", "git-push", map[string]any{"path": "./out"}),
	}
}

func syncStep(t testing.TB, stage string) kargoapi.PromotionStep {
	return step(t, "sync", "argocd-update", map[string]any{"apps": []any{map[string]any{
		"namespace": "argocd",
		"selector":  map[string]any{"matchLabels": map[string]any{"stage": stage}},
		"sources":   []any{map[string]any{"repoURL": releases, "desiredRevision": "${{ outputs['push'].commit }}"}},
	}}})
}

func stage(name string, steps []kargoapi.PromotionStep, sources kargoapi.FreightSources) *kargoapi.Stage {
	return manifest.Typed(&kargoapi.Stage{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop"},
		Spec: kargoapi.StageSpec{
			RequestedFreight:  []kargoapi.FreightRequest{{Origin: kargoapi.FreightOrigin{Kind: kargoapi.FreightOriginKindWarehouse, Name: "shop"}, Sources: sources}},
			PromotionTemplate: &kargoapi.PromotionTemplate{Spec: kargoapi.PromotionTemplateSpec{Steps: steps}},
		},
	}, kargoAPI, "Stage")
}

// argoFor are the Argo CD objects of the shop: its AppProject, a cluster, and an ApplicationSet per
// stage generating shop-<stage>-<cluster>, authorized for the stage, on its release branch.
func argoFor(stages ...string) []manifest.Object {
	project := manifest.Typed(&argoapi.AppProject{
		ObjectMeta: metav1.ObjectMeta{Name: "shop", Namespace: "argocd"},
		Spec: argoapi.AppProjectSpec{
			SourceRepos:  []string{releases},
			Destinations: []argoapi.ApplicationDestination{{Name: "*", Namespace: "shop"}},
		},
	}, "argoproj.io/v1alpha1", "AppProject")
	secret := manifest.Typed(&corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster-prod-01", Namespace: "argocd", Labels: map[string]string{"argocd.argoproj.io/secret-type": "cluster"}},
		StringData: map[string]string{"name": "prod-01", "server": "https://prod-01.example.com", "config": `{"tlsClientConfig":{"insecure":false}}`},
	}, "v1", "Secret")
	out := []manifest.Object{project, secret}
	for _, s := range stages {
		out = append(out, manifest.Typed(&argoapi.ApplicationSet{
			ObjectMeta: metav1.ObjectMeta{Name: "shop-" + s, Namespace: "argocd"},
			Spec: argoapi.ApplicationSetSpec{
				GoTemplate: true,
				// a selector: the cluster generator then leaves out the local cluster
				Generators: []argoapi.ApplicationSetGenerator{{Clusters: &argoapi.ClusterGenerator{Selector: metav1.LabelSelector{
					MatchLabels: map[string]string{"argocd.argoproj.io/secret-type": "cluster"}}}}},
				Template: argoapi.ApplicationSetTemplate{
					ApplicationSetTemplateMeta: argoapi.ApplicationSetTemplateMeta{
						Name:        "shop-" + s + "-{{ .name }}",
						Labels:      map[string]string{"stage": s},
						Annotations: map[string]string{"kargo.akuity.io/authorized-stage": "shop:" + s},
					},
					Spec: argoapi.ApplicationSpec{
						Project:     "shop",
						Destination: argoapi.ApplicationDestination{Name: "{{ .name }}", Namespace: "shop"},
						Source:      &argoapi.ApplicationSource{RepoURL: releases, TargetRevision: "rendered/shop/" + s, Path: "{{ .name }}"},
					},
				},
			},
		}, "argoproj.io/v1alpha1", "ApplicationSet"))
	}
	return out
}

// appSetNamed renames an ApplicationSet of argoFor, its Applications and the stage label they carry.
func appSetNamed(o manifest.Object, name, appName, label string) {
	set := o.(*argoapi.ApplicationSet)
	set.Name = name
	set.Spec.Template.Name = appName
	set.Spec.Template.Labels = map[string]string{"stage": label}
}

// shop is a project with a dev stage auto-promoted from the Warehouse and a prod stage a person
// promotes from dev.
func shop(t testing.TB) map[string][]manifest.Object {
	dev := stage("dev", append(renderSteps(t, "dev"), syncStep(t, "dev")), kargoapi.FreightSources{Direct: true})
	prod := stage("prod", append(renderSteps(t, "prod"), syncStep(t, "prod")), kargoapi.FreightSources{Stages: []string{"dev"}})
	return map[string][]manifest.Object{
		"shop.k8s.yaml":  {kargoProject("2h"), projectConfig("dev"), warehouse(), dev, prod},
		"fleet.k8s.yaml": argoFor("dev", "prod"),
	}
}

// run runs the kargo checks on the files (git >= 2.42 must be first on PATH:
// scripts/git-for-kargo.sh).
func run(t testing.TB, files map[string][]manifest.Object, checks ...string) *Report {
	t.Helper()
	r, err := Run(context.Background(), Options{Manifests: manifest.Dir(t, files), Work: t.TempDir(), Checks: checks})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func codes(r *Report) string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Code+" "+f.Kind+"/"+f.Name+": "+f.Message)
	}
	return strings.Join(out, "\n")
}

func withCode(r *Report, code string) []string {
	var out []string
	for _, f := range r.Findings {
		if f.Code == code {
			out = append(out, f.Name+": "+f.Message+" (upstream: "+f.Upstream+")")
		}
	}
	return out
}

func mustContain(t *testing.T, s string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(s, p) {
			t.Errorf("%q does not contain %q", s, p)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// widgetBundle is a one-CRD schema bundle in the format of imports/schema-bundle.json: a default,
// an enum, a minimum, a set-typed list and two CEL rules (one only holds once defaulting ran).
const widgetBundle = `{"crds":[{"group":"example.io","kind":"Widget","namespaced":true,"source":"test/widget.yaml","versions":[{"name":"v1","schema":
{"type":"object","properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},
 "spec":{"type":"object","required":["size"],"properties":{
   "size":{"type":"integer","minimum":1},
   "mode":{"type":"string","default":"fast","enum":["fast","slow"]},
   "min":{"type":"integer"},"max":{"type":"integer"},
   "tags":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"set"}},
  "x-kubernetes-validations":[
   {"rule":"!has(self.min) || !has(self.max) || self.min <= self.max","message":"min must not exceed max"},
   {"rule":"has(self.mode)","message":"mode is defaulted before validation"}]}}}}]}],"kargoSchemas":{}}`

// object is a typed apimachinery value of an object of a CRD (the suite's test CRD has no Go type).
func object(apiVersion, kind, namespace, name string, spec map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"name": name}}}
	if namespace != "" {
		u.SetNamespace(namespace)
	}
	if spec != nil {
		u.Object["spec"] = spec
	}
	return u
}

// manifest is objects as one multi-document YAML file.
func manifest(t *testing.T, objects ...*unstructured.Unstructured) string {
	t.Helper()
	docs := make([]string, 0, len(objects))
	for _, o := range objects {
		data, err := yaml.Marshal(o.Object)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(data))
	}
	return strings.Join(docs, "---\n")
}

func admitWidgets(t *testing.T, bundleText string, objects ...*unstructured.Unstructured) *Report {
	t.Helper()
	dir := t.TempDir()
	bundleFile := filepath.Join(dir, "bundle.json")
	manifests := filepath.Join(dir, "manifests")
	if err := os.MkdirAll(manifests, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bundleFile, []byte(bundleText), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(manifests, "w.k8s.yaml"), []byte(manifest(t, objects...)), 0o644); err != nil {
		t.Fatal(err)
	}
	crds, err := loadBundle(bundleFile)
	if err != nil {
		t.Fatal(err)
	}
	read, err := readManifests(manifests)
	if err != nil {
		t.Fatal(err)
	}
	r := newReport()
	checkManifests(read, crds, r)
	return r
}

func widget(spec map[string]any) *unstructured.Unstructured {
	return object("example.io/v1", "Widget", "shop", "w", spec)
}

func findings(r *Report) string {
	r.Sort()
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Path+" "+f.Code)
	}
	return strings.Join(out, ",")
}

func TestGoodWidgetIsAdmitted(t *testing.T) {
	r := admitWidgets(t, widgetBundle, widget(map[string]any{"size": 3, "min": 1, "max": 2, "tags": []any{"a", "b"}}), object("v1", "ConfigMap", "", "c", nil))
	if got := findings(r); got != "" {
		t.Fatalf("findings %q", got)
	}
	if r.Counted["admitted"] != 1 || r.Counted["objects without a pinned crd (not checked)"] != 1 {
		t.Fatalf("counted %v", r.Counted)
	}
}

func TestUnknownFieldsArePruned(t *testing.T) {
	w := object("example.io/v1", "Widget", "", "w", map[string]any{"size": 3, "colour": "red"})
	w.Object["metadata"].(map[string]any)["labelz"] = map[string]any{"a": "b"}
	r := admitWidgets(t, widgetBundle, w)
	if got := findings(r); got != "/metadata/labelz field-pruned,/spec/colour field-pruned" {
		t.Fatalf("findings %q", got)
	}
	f := r.Findings[1]
	if !strings.Contains(f.Message, `drops spec.colour (value "red")`) || !strings.HasSuffix(f.Upstream, "pkg/apiserver/schema/pruning.PruneWithOptions") {
		t.Fatalf("finding %+v", f)
	}
	if !strings.HasSuffix(r.Findings[0].Upstream, "objectmeta.GetObjectMetaWithOptions") {
		t.Fatalf("finding %+v", r.Findings[0])
	}
}

func TestSchemaViolations(t *testing.T) {
	r := admitWidgets(t, widgetBundle, widget(map[string]any{"size": 0, "mode": "medium", "tags": []any{"a", "a"}}))
	// The schema errors block the CEL rules, which the API server says in one more error.
	if got := findings(r); got != " cel-rules-skipped,/spec/mode schema-invalid,/spec/size schema-invalid,/spec/tags/1 schema-invalid" {
		t.Fatalf("findings %q", got)
	}
	if !strings.Contains(r.Findings[0].Message, "some validation rules were not checked") {
		t.Fatalf("finding %+v", r.Findings[0])
	}
	if !strings.HasSuffix(r.Findings[1].Upstream, "validation.ValidateCustomResource") || !strings.Contains(r.Findings[1].Message, `"medium"`) {
		t.Fatalf("finding %+v", r.Findings[1])
	}
	if !strings.HasSuffix(r.Findings[3].Upstream, "listtype.ValidateListSetsAndMaps") {
		t.Fatalf("finding %+v", r.Findings[3])
	}
}

func TestCELRuleFails(t *testing.T) {
	r := admitWidgets(t, widgetBundle, widget(map[string]any{"size": 3, "min": 5, "max": 1}))
	if got := findings(r); got != "/spec cel-rule-failed" {
		t.Fatalf("findings %q", got)
	}
	if !strings.Contains(r.Findings[0].Message, "min must not exceed max") || !strings.HasSuffix(r.Findings[0].Upstream, "cel.Validator.Validate") {
		t.Fatalf("finding %+v", r.Findings[0])
	}
}

func TestBadNameAndUnservedVersion(t *testing.T) {
	badName := widget(map[string]any{"size": 3})
	badName.SetName("Bad_Name")
	v2 := widget(map[string]any{"size": 3})
	v2.SetAPIVersion("example.io/v2")
	r := admitWidgets(t, widgetBundle, badName, v2)
	if got := findings(r); got != "/metadata/name schema-invalid,/apiVersion version-not-served" {
		t.Fatalf("findings %q", got)
	}
}

func TestNotStructuralBundleIsAnInputError(t *testing.T) {
	bad := strings.Replace(widgetBundle, `"size":{"type":"integer","minimum":1}`, `"size":{"minimum":1}`, 1)
	file := filepath.Join(t.TempDir(), "bundle.json")
	if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadBundle(file); err == nil || !strings.Contains(err.Error(), "not a structural schema") {
		t.Fatalf("error %v", err)
	}
}

// The project's own bundle: a Kargo Stage step that both uses a step and references a task breaks
// the CEL rule of Kargo v1.11.2's Stage CRD.
func TestProjectBundleKargoStageRule(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", BundlePath))
	if err != nil {
		t.Fatal(err)
	}
	step := map[string]any{"uses": "git-clone", "task": map[string]any{"name": "render-cluster"}}
	stage := object("kargo.akuity.io/v1alpha1", "Stage", "guestbook", "test", map[string]any{
		"requestedFreight":  []any{map[string]any{"origin": map[string]any{"kind": "Warehouse", "name": "guestbook"}, "sources": map[string]any{"direct": true}}},
		"promotionTemplate": map[string]any{"spec": map[string]any{"steps": []any{step}}},
	})
	r := admitWidgets(t, string(text), stage)
	if got := findings(r); got != "/spec/promotionTemplate/spec/steps/0 cel-rule-failed" {
		t.Fatalf("findings %q", got)
	}
	if !strings.Contains(r.Findings[0].Message, "PromotionTemplate step must have exactly one of uses or task set") {
		t.Fatalf("message %q", r.Findings[0].Message)
	}
	delete(step, "task")
	r = admitWidgets(t, string(text), stage)
	if got := findings(r); got != "" {
		t.Fatalf("findings %q", got)
	}
}

func TestPointer(t *testing.T) {
	obj := map[string]any{"metadata": map[string]any{"labels": map[string]any{"a.b/c": "x"}}, "spec": map[string]any{"steps": []any{map[string]any{"k.v": map[string]any{"z": 1}}}}}
	for path, want := range map[string]string{
		"metadata.labels[a.b/c]": "/metadata/labels/a.b~1c",
		"spec.steps[0].k.v.z":    "/spec/steps/0/k.v/z",
		"spec.steps[0]":          "/spec/steps/0",
		"spec":                   "/spec",
	} {
		if got := pointer(obj, path); got != want {
			t.Errorf("pointer(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestFlags(t *testing.T) {
	var stdout, stderr strings.Builder
	if code := run(nil, &stdout, &stderr); code != 2 {
		t.Fatalf("exit %d", code)
	}
	if code := run([]string{"--manifests", t.TempDir()}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "no project") {
		t.Fatalf("exit %d stderr %q", code, stderr.String())
	}
}

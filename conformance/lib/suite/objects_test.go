package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadManifestsReadsEveryYAMLBelowDirInPathOrder(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "b.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: two\n  namespace: ns\n---\n# only a comment\n---\n\n---\nkind: Secret\nmetadata:\n  name: three\n")
	write(t, dir, "a/z.yml", "apiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata:\n  name: one\n")
	write(t, dir, "notes.md", "kind: Ignored\n")
	write(t, dir, "c.yaml", "metadata:\n  name: no-kind\n")
	objects, err := ReadManifests(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range objects {
		got = append(got, o.Source+" "+o.APIVersion+" "+o.Kind+" "+o.Namespace+"/"+o.Name)
	}
	want := []string{
		"a/z.yml argoproj.io/v1alpha1 AppProject /one",
		"b.yaml v1 ConfigMap ns/two",
		"b.yaml  Secret /three",
		"c.yaml   /no-kind",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("objects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if string(objects[1].JSON) != `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"two","namespace":"ns"}}` {
		t.Errorf("json %s", objects[1].JSON)
	}
}

func TestReadManifestsFailsOnADocumentThatIsNotAnObject(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "x.yaml", "kind: A\n---\n- a list\n")
	_, err := ReadManifests(dir)
	if err == nil || !strings.HasPrefix(err.Error(), "x.yaml: a document is not an object: ") {
		t.Errorf("error %v", err)
	}
}

func TestReadManifestsFailsOnInvalidYAMLNamingTheFile(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "sub/bad.yaml", "kind: [unclosed\n")
	if _, err := ReadManifests(dir); err == nil || !strings.HasPrefix(err.Error(), "sub/bad.yaml: ") {
		t.Errorf("error %v", err)
	}
}

func TestReadManifestsFailsOnAMissingDirectory(t *testing.T) {
	if _, err := ReadManifests(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("no error for a missing directory")
	}
}

func TestFindingCarriesTheObjectAndFormatsTheMessage(t *testing.T) {
	o := Object{Source: "s.yaml", APIVersion: "v1", Kind: "Secret", Name: "n", Namespace: "ns"}
	f := o.Finding("/data", "code-x", "mod@v1 pkg.F", "value %q refused", "v")
	want := Finding{Source: "s.yaml", APIVersion: "v1", Kind: "Secret", Name: "n", Namespace: "ns", Path: "/data", Code: "code-x", Message: `value "v" refused`, Upstream: "mod@v1 pkg.F"}
	if f != want {
		t.Errorf("finding %+v", f)
	}
}

// Package manifest writes typed upstream objects as the YAML files of a manifests directory, for
// the tests of the conformance commands: each test builds its objects as Go values of the
// upstream types, so a field the type does not have does not compile.
package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// Object is an upstream object with its type meta.
type Object interface {
	GetObjectKind() schema.ObjectKind
}

// Typed sets an object's apiVersion and kind (the Go types leave them empty) and returns it.
func Typed[T Object](obj T, apiVersion, kind string) T {
	obj.GetObjectKind().SetGroupVersionKind(schema.FromAPIVersionAndKind(apiVersion, kind))
	return obj
}

// YAML is the objects as one multi-document YAML file.
func YAML(t testing.TB, objects ...Object) string {
	t.Helper()
	docs := make([]string, 0, len(objects))
	for _, o := range objects {
		if o.GetObjectKind().GroupVersionKind().Kind == "" {
			t.Fatalf("object %T has no kind: build it with manifest.Typed", o)
		}
		data, err := yaml.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(data))
	}
	return strings.Join(docs, "---\n")
}

// Dir writes files (file name -> objects) to a new temporary directory and returns it.
func Dir(t testing.TB, files map[string][]Object) string {
	t.Helper()
	dir := t.TempDir()
	for name, objects := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(YAML(t, objects...)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

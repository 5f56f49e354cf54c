package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFlags(t *testing.T) {
	var stdout, stderr strings.Builder
	if code := run([]string{}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "exactly one of") {
		t.Fatalf("exit %d stderr %q", code, stderr.String())
	}
	if code := run([]string{"--manifests", filepath.Join(t.TempDir(), "missing")}, &stdout, &stderr); code != 2 {
		t.Fatalf("exit %d on a missing directory", code)
	}
}

func TestOutputIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	manifest := manifestYAML(t, append(promTemplate(nil, "result[0] < 0.05"), webTemplate("result == {{args.version}}", "{$.version}"))...)
	if err := os.WriteFile(filepath.Join(dir, "b.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.yml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	var first, second, stderr strings.Builder
	if code := run([]string{"--manifests", dir}, &first, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	run([]string{"--manifests", dir}, &second, &stderr)
	if first.String() != second.String() {
		t.Fatal("two runs differ")
	}
	if strings.Index(first.String(), `"source": "a.yml"`) > strings.Index(first.String(), `"source": "b.yaml"`) {
		t.Fatal("findings are not sorted by source")
	}
}

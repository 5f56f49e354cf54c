package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{}, {"--manifests", "a", "--values", "b"}, {"--before", "a", "--values", "b"},
		{"--manifests", "a", "--now", "tomorrow"}, {"--manifests", "a", "extra"},
	} {
		if _, err := parseFlags(args); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
	o, err := parseFlags([]string{"--manifests", "m", "--now", "2026-12-24T12:00:00+01:00"})
	if err != nil || o.now == nil || o.now.UTC().Hour() != 11 {
		t.Errorf("%v %v", o, err)
	}
}

func TestUnreadableDirectoryIsAnError(t *testing.T) {
	if _, err := run(context.Background(), &options{manifests: filepath.Join(t.TempDir(), "missing"), namespace: "argocd"}); err == nil {
		t.Error("a missing directory ran")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.yaml"), []byte("kind: [unclosed"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := run(context.Background(), &options{manifests: dir, namespace: "argocd"}); err == nil {
		t.Error("a file that is not YAML ran")
	}
}

func TestInstanceOfFollowsPerClusterFileNames(t *testing.T) {
	for source, want := range map[string]string{
		"shop.k8s.yaml": "", "shop--oci-fra-h100-prod-01.k8s.yaml": "oci-fra-h100-prod-01",
		"sub/a--b.yml": "b", "fleet.yaml": "",
	} {
		if got := instanceOf(source); got != want {
			t.Errorf("%s: %q, want %q", source, got, want)
		}
	}
}

func TestOutputIsDeterministicAndSorted(t *testing.T) {
	files := map[string]string{
		"b.k8s.yaml": docs(projectWithWindow(freeze("@weekly", "1h", "UTC")), application),
		"a.k8s.yaml": clusterSecret + "  shard: x\n",
	}
	var out [2]bytes.Buffer
	for i := range out {
		if err := runOn(t, files, nil).write(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	if out[0].String() != out[1].String() {
		t.Fatal("two runs differ")
	}
	r := runOn(t, files, nil)
	_ = r.write(&bytes.Buffer{})
	if len(r.Findings) != 2 || r.Findings[0].Source != "a.k8s.yaml" || r.Findings[1].Source != "b.k8s.yaml" {
		t.Errorf("order: %s", dump(r))
	}
}

package argocd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestUnreadableDirectoryIsAnError(t *testing.T) {
	if _, err := Run(context.Background(), Options{Manifests: filepath.Join(t.TempDir(), "missing"), Namespace: "argocd"}); err == nil {
		t.Error("a missing directory ran")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.yaml"), []byte("kind: [unclosed"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), Options{Manifests: dir, Namespace: "argocd"}); err == nil {
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
	shard := clusterSecret()
	shard.StringData["shard"] = "x"
	files := map[string][]manifestObject{
		"b.k8s.yaml": objs(projectWithWindow(freeze("@weekly", "1h", "UTC")), application()),
		"a.k8s.yaml": objs(shard),
	}
	var out [2]bytes.Buffer
	for i := range out {
		if err := runOn(t, files, nil).Write(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	if out[0].String() != out[1].String() {
		t.Fatal("two runs differ")
	}
	r := runOn(t, files, nil)
	_ = r.Write(&bytes.Buffer{})
	if len(r.Findings) != 2 || r.Findings[0].Source != "a.k8s.yaml" || r.Findings[1].Source != "b.k8s.yaml" {
		t.Errorf("order: %s", dump(r))
	}
}

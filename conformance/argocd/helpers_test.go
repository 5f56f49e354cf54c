package main

import (
	"io"

	"bytes"
	"context"
	log "github.com/sirupsen/logrus"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hubProject is an AppProject that permits the hub's fixture Application; tests change one thing.
const hubProject = `
apiVersion: argoproj.io/v1alpha1
kind: AppProject
metadata: {name: shop, namespace: argocd}
spec:
  sourceRepos: [https://github.com/acme/releases.git]
  destinations:
    - {name: prod-01, namespace: shop}
  clusterResourceWhitelist:
    - {group: "", kind: Namespace, name: shop}
`

const clusterSecret = `
apiVersion: v1
kind: Secret
metadata:
  name: cluster-prod-01
  namespace: argocd
  labels: {argocd.argoproj.io/secret-type: cluster}
stringData:
  name: prod-01
  server: https://prod-01.example.com
  config: '{"tlsClientConfig":{"insecure":false}}'
`

const application = `
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: shop-prod-01, namespace: argocd}
spec:
  project: shop
  destination: {name: prod-01, namespace: shop}
  source: {repoURL: https://github.com/acme/releases.git, path: prod-01, targetRevision: main}
  syncPolicy:
    syncOptions: [CreateNamespace=true]
`

// runOn writes files (name -> YAML documents) to a manifests directory and runs the command's
// checks on it.
func runOn(t *testing.T, files map[string]string, now *time.Time) *Report {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r, err := run(context.Background(), &options{manifests: dir, namespace: "argocd", now: now})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func docs(parts ...string) string { return strings.Join(parts, "\n---\n") }

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
	_ = r.write(&b)
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
	log.SetOutput(io.Discard) // Argo CD's informers log through logrus
	os.Exit(m.Run())
}

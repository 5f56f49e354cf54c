package main

import (
	"strings"
	"testing"
)

func TestClusterSecretArgoCDCannotRead(t *testing.T) {
	bad := strings.Replace(clusterSecret, `'{"tlsClientConfig":{"insecure":false}}'`, `'{"tlsClientConfig":{"insecure":"s3cr3t"}}'`, 1)
	r := runOn(t, map[string]string{"fleet.k8s.yaml": bad}, nil)
	f := onlyFinding(t, r, "cluster-secret-invalid")
	if f.Kind != "Secret" || f.Name != "cluster-prod-01" || f.Path != "/stringData/config" {
		t.Errorf("finding on %s %s %s", f.Kind, f.Name, f.Path)
	}
	mustContain(t, f.Message, "failed to unmarshal cluster config", `no cluster "prod-01"`)
	if strings.Contains(f.Message, "s3cr3t") {
		t.Errorf("message echoes the secret's config: %s", f.Message)
	}
	if !strings.HasSuffix(f.Upstream, "util/db.SecretToCluster") {
		t.Errorf("upstream %s", f.Upstream)
	}
}

func TestClusterSecretArgoCDReads(t *testing.T) {
	r := runOn(t, map[string]string{"fleet.k8s.yaml": clusterSecret}, nil)
	noFindings(t, r)
	if r.Counted["clusterSecrets"] != 1 {
		t.Errorf("counted %v", r.Counted)
	}
}

func TestClusterSecretShardArgoCDIgnores(t *testing.T) {
	r := runOn(t, map[string]string{"fleet.k8s.yaml": clusterSecret + "  shard: two\n"}, nil)
	f := onlyFinding(t, r, "cluster-secret-shard-ignored")
	mustContain(t, f.Message, `shard "two"`)
	if f.Path != "/stringData/shard" {
		t.Errorf("path %s", f.Path)
	}
}

func TestSecretsWithoutTheClusterLabelAreNotClusters(t *testing.T) {
	plain := strings.Replace(clusterSecret, "argocd.argoproj.io/secret-type: cluster", "team: shop", 1)
	r := runOn(t, map[string]string{"fleet.k8s.yaml": strings.Replace(plain, `{"tlsClientConfig":{"insecure":false}}`, "not json", 1)}, nil)
	noFindings(t, r)
	if r.Counted["clusterSecrets"] != 0 {
		t.Errorf("counted %v", r.Counted)
	}
}

func TestClusterSecretFindingPointsAtDataWhenWrittenThere(t *testing.T) {
	secret := strings.Replace(clusterSecret, "  shard: x\n", "", 1) + "data:\n  shard: eA==\n" // base64 "x"
	f := onlyFinding(t, runOn(t, map[string]string{"fleet.k8s.yaml": secret}, nil), "cluster-secret-shard-ignored")
	if f.Path != "/data/shard" {
		t.Errorf("path %s", f.Path)
	}
}

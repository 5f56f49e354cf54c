package argocd

import (
	"strings"
	"testing"
)

func TestClusterSecretArgoCDCannotRead(t *testing.T) {
	bad := clusterSecret()
	bad.StringData["config"] = `{"tlsClientConfig":{"insecure":"s3cr3t"}}`
	r := runOn(t, map[string][]manifestObject{"fleet.k8s.yaml": objs(bad)}, nil)
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
	r := runOn(t, map[string][]manifestObject{"fleet.k8s.yaml": objs(clusterSecret())}, nil)
	noFindings(t, r)
	if r.Counted["clusterSecrets"] != 1 {
		t.Errorf("counted %v", r.Counted)
	}
}

func TestClusterSecretShardArgoCDIgnores(t *testing.T) {
	s := clusterSecret()
	s.StringData["shard"] = "two"
	f := onlyFinding(t, runOn(t, map[string][]manifestObject{"fleet.k8s.yaml": objs(s)}, nil), "cluster-secret-shard-ignored")
	mustContain(t, f.Message, `shard "two"`)
	if f.Path != "/stringData/shard" {
		t.Errorf("path %s", f.Path)
	}
}

func TestSecretsWithoutTheClusterLabelAreNotClusters(t *testing.T) {
	plain := clusterSecret()
	plain.Labels = map[string]string{"team": "shop"}
	plain.StringData["config"] = "not json"
	r := runOn(t, map[string][]manifestObject{"fleet.k8s.yaml": objs(plain)}, nil)
	noFindings(t, r)
	if r.Counted["clusterSecrets"] != 0 {
		t.Errorf("counted %v", r.Counted)
	}
}

func TestClusterSecretFindingPointsAtDataWhenWrittenThere(t *testing.T) {
	s := clusterSecret()
	s.Data = map[string][]byte{"shard": []byte("x")}
	f := onlyFinding(t, runOn(t, map[string][]manifestObject{"fleet.k8s.yaml": objs(s)}, nil), "cluster-secret-shard-ignored")
	if f.Path != "/data/shard" {
		t.Errorf("path %s", f.Path)
	}
}

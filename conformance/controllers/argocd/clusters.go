package argocd

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	kubefake "k8s.io/client-go/kubernetes/fake"

	"github.com/argoproj/argo-cd/v3/common"
	"github.com/argoproj/argo-cd/v3/util/db"
	"github.com/argoproj/argo-cd/v3/util/settings"
)

// Argo is Argo CD's own view of the fleet's cluster and repository Secrets: the settings manager and ArgoDB the
// controllers use, over a fake API server that holds the manifests' Secrets, argocd-cm and
// argocd-secret (the objects Argo CD's own tests start from, util/db/db_test.go getClientset).
type Argo struct {
	Kube     kubernetes.Interface
	Settings *settings.SettingsManager
	DB       db.ArgoDB
}

func newArgo(ctx context.Context, fleet *Fleet) *Argo {
	objects := []runtime.Object{
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Name: common.ArgoCDConfigMapName, Namespace: fleet.Namespace,
			Labels: map[string]string{"app.kubernetes.io/part-of": "argocd"},
		}},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{
			Name: common.ArgoCDSecretName, Namespace: fleet.Namespace,
			Labels: map[string]string{"app.kubernetes.io/part-of": "argocd"},
		}, Data: map[string][]byte{"server.secretkey": []byte("conformance")}},
	}
	for _, s := range fleet.ClusterSecrets {
		objects = append(objects, s.Value.DeepCopy())
	}
	for _, s := range fleet.RepositorySecrets {
		objects = append(objects, s.Value.DeepCopy())
	}
	kube := kubefake.NewClientset(objects...)
	mgr := settings.NewSettingsManager(ctx, kube, fleet.Namespace)
	return &Argo{Kube: kube, Settings: mgr, DB: db.NewDB(fleet.Namespace, mgr, kube)}
}

// checkClusterSecrets parses every cluster Secret with Argo CD's own SecretToCluster. A Secret
// it refuses is a cluster Argo CD does not have: every Application aimed at it fails.
func checkClusterSecrets(r *Report, fleet *Fleet) {
	decidedBy := upstream("util/db", "SecretToCluster")
	for _, s := range fleet.ClusterSecrets {
		r.count("clusterSecrets", 1)
		cluster, err := db.SecretToCluster(&s.Value)
		if err != nil {
			r.add(s.Object, secretField(s.Object, "config"), "cluster-secret-invalid",
				fmt.Sprintf("argo cd cannot read cluster secret %s: %s; it has no cluster %q and every application aimed at it fails",
					s.Object.Name, err, string(s.Value.Data["name"])), decidedBy)
			continue
		}
		// SecretToCluster only logs a shard it cannot parse and leaves the cluster unsharded.
		if shard, ok := s.Value.Data["shard"]; ok && cluster.Shard == nil {
			r.add(s.Object, secretField(s.Object, "shard"), "cluster-secret-shard-ignored",
				fmt.Sprintf("argo cd ignores shard %q of cluster %s (not an integer): the cluster is assigned to a shard by hash instead",
					string(shard), cluster.Name), decidedBy)
		}
	}
}

// secretField is the JSON pointer of a Secret key as the manifest writes it: stringData wins
// over data on the API server, so a key in stringData is where the value came from.
func secretField(obj *Object, key string) string {
	var written struct {
		StringData map[string]string `json:"stringData"`
	}
	if err := json.Unmarshal(obj.JSON, &written); err == nil {
		if _, ok := written.StringData[key]; ok {
			return "/stringData/" + key
		}
	}
	return "/data/" + key
}

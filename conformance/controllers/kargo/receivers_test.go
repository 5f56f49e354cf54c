package kargo

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	kargoapi "github.com/akuity/kargo/api/v1alpha1"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/internal/manifest"
)

// ecrReceiver is the example platform's generic receiver for ECR pushes (requests/ecr-ml.json).
func ecrReceiver(when string) kargoapi.WebhookReceiverConfig {
	return kargoapi.WebhookReceiverConfig{Name: "ecr-ml", Generic: &kargoapi.GenericWebhookReceiverConfig{
		SecretRef: corev1.LocalObjectReference{Name: "kargo-webhook-ecr-ml"},
		Actions: []kargoapi.GenericWebhookAction{{
			ActionType:     kargoapi.GenericWebhookActionTypeRefresh,
			WhenExpression: when,
			TargetSelectionCriteria: []kargoapi.GenericWebhookTargetSelectionCriteria{{
				Kind: "Warehouse",
				IndexSelector: kargoapi.IndexSelector{MatchIndices: []kargoapi.IndexSelectorRequirement{{
					Key: "subscribedURLs", Operator: kargoapi.IndexSelectorOperatorEqual,
					Value: "${{ normalizeImage('123456789012.dkr.ecr.us-east-1.amazonaws.com/' + request.body.detail['repository-name']) }}",
				}}},
			}},
		}},
	}}
}

func clusterConfig(receivers ...kargoapi.WebhookReceiverConfig) *kargoapi.ClusterConfig {
	return manifest.Typed(&kargoapi.ClusterConfig{ObjectMeta: metav1.ObjectMeta{Name: "cluster"}, Spec: kargoapi.ClusterConfigSpec{WebhookReceivers: receivers}}, kargoAPI, "ClusterConfig")
}

func receiverSecret(name string) *corev1.Secret {
	return manifest.Typed(&corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: systemResourcesNamespace},
		StringData: map[string]string{"secret": "s3cr3t"},
	}, "v1", "Secret")
}

// modelServer is a Warehouse of the ECR image the sample request pushes, covered by receiver ecr-ml.
func modelServer(receivers string) *kargoapi.Warehouse {
	return manifest.Typed(&kargoapi.Warehouse{
		ObjectMeta: metav1.ObjectMeta{Name: "model-server", Namespace: "model-server", Annotations: map[string]string{receiversAnnotation: receivers}},
		Spec: kargoapi.WarehouseSpec{InternalSubscriptions: []kargoapi.RepoSubscription{
			{Image: &kargoapi.ImageSubscription{RepoURL: "123456789012.dkr.ecr.us-east-1.amazonaws.com/ml/model-server", Constraint: "^1.0.0"}},
			{Git: &kargoapi.GitSubscription{RepoURL: "https://github.com/acme/model-config.git", Branch: "main", IncludePaths: []string{"models"}}},
		}},
	}, kargoAPI, "Warehouse")
}

func receivers(t *testing.T, objs ...manifest.Object) *Report {
	t.Helper()
	return run(t, map[string][]manifest.Object{"fleet.k8s.yaml": objs}, "receivers")
}

func TestTheExampleECRReceiverRefreshesItsWarehouse(t *testing.T) {
	r := receivers(t, clusterConfig(ecrReceiver("request.body.detail['action-type'] == 'PUSH' && request.body.detail.result == 'SUCCESS'")),
		receiverSecret("kargo-webhook-ecr-ml"), modelServer("ecr-ml"))
	if len(r.Findings) != 0 {
		t.Fatalf("findings:\n%s", codes(r))
	}
	if len(r.Receivers) != 1 || r.Receivers[0].Status != 200 || strings.Join(r.Receivers[0].Refreshed, ",") != "model-server/model-server" ||
		!strings.HasPrefix(r.Receivers[0].Results[0], "Success") {
		t.Fatalf("answers %+v", r.Receivers)
	}
}

// The known break when-expression-syntax: Kargo's whenExpressionMet ends every action in Error.
func TestAWhenExpressionKargoCannotCompile(t *testing.T) {
	r := receivers(t, clusterConfig(ecrReceiver("request.header('X' ==")), receiverSecret("kargo-webhook-ecr-ml"), modelServer("ecr-ml"))
	errs := withCode(r, "when-expression-error")
	if len(errs) != 1 || r.Findings[0].Path != "/spec/webhookReceivers/0/generic/actions/0/whenExpression" {
		t.Fatalf("findings:\n%s", codes(r))
	}
	mustContain(t, errs[0], "Error evaluating whenExpression", "unexpected token EOF", "answered 500", "pkg/webhook/external.whenExpressionMet")
}

// A receiver whose Secret the output does not hold: NewReceiver refuses it, as the ClusterConfig
// reconciler calls it; the request is still decided, with a stand-in Secret.
func TestAReceiverWithoutItsSecret(t *testing.T) {
	r := receivers(t, clusterConfig(ecrReceiver("true")), modelServer("ecr-ml"))
	missing := withCode(r, "receiver-secret-missing")
	if len(missing) != 1 || r.Findings[0].Path != "/spec/webhookReceivers/0/generic/secretRef/name" {
		t.Fatalf("findings:\n%s", codes(r))
	}
	mustContain(t, missing[0], `secret kargo-system-resources/kargo-webhook-ecr-ml`, "not found", "model-server/model-server", "pkg/webhook/external.NewReceiver")
	if r.Counted["webhook receivers evaluated with a stand-in secret"] != 1 || len(r.Receivers) != 1 {
		t.Errorf("counted %v", r.Counted)
	}
}

// A GitHub receiver is sent a signed push for every Git subscription of the Warehouses it covers;
// a project's receiver refreshes only its project's Warehouses.
func TestAGitHubReceiverAndTheWarehousesItCovers(t *testing.T) {
	github := kargoapi.WebhookReceiverConfig{Name: "github", GitHub: &kargoapi.GitHubWebhookReceiverConfig{SecretRef: corev1.LocalObjectReference{Name: "kargo-webhook-github"}}}
	r := receivers(t, clusterConfig(github), receiverSecret("kargo-webhook-github"), modelServer("github"))
	if len(r.Findings) != 0 || len(r.Receivers) != 1 || strings.Join(r.Receivers[0].Refreshed, ",") != "model-server/model-server" {
		t.Fatalf("findings:\n%s\nanswers %+v", codes(r), r.Receivers)
	}
	pc := manifest.Typed(&kargoapi.ProjectConfig{ObjectMeta: metav1.ObjectMeta{Name: "shop", Namespace: "shop"},
		Spec: kargoapi.ProjectConfigSpec{WebhookReceivers: []kargoapi.WebhookReceiverConfig{github}}}, kargoAPI, "ProjectConfig")
	secret := receiverSecret("kargo-webhook-github")
	secret.Namespace = "shop"
	r = receivers(t, pc, secret, modelServer("shop/github"))
	misses := withCode(r, "receiver-misses-warehouse")
	if len(misses) != 1 {
		t.Fatalf("findings:\n%s", codes(r))
	}
	mustContain(t, misses[0], "kargo does not refresh warehouse model-server/model-server on a github push to https://github.com/acme/model-config.git", "refreshWarehouses")
}

// A Secret the library writes without data for an external system to fill: live it holds the key
// the library names, and Kargo decides whether that is the key the receiver's kind reads.
func TestAReceiverSecretAnExternalSystemFills(t *testing.T) {
	shell := func(key string) *corev1.Secret {
		return manifest.Typed(&corev1.Secret{ObjectMeta: metav1.ObjectMeta{
			Name: "kargo-webhook-ecr-ml", Namespace: systemResourcesNamespace,
			Annotations: map[string]string{"gitops-platform.io/credentials-source": "ExternalSecret kargo-webhook-ecr-ml (merge)", "gitops-platform.io/secret-key": key},
		}}, "v1", "Secret")
	}
	when := "request.body.detail['action-type'] == 'PUSH'"
	if r := receivers(t, clusterConfig(ecrReceiver(when)), shell("secret"), modelServer("ecr-ml")); len(r.Findings) != 0 {
		t.Fatalf("findings:\n%s", codes(r))
	}
	r := receivers(t, clusterConfig(ecrReceiver(when)), shell("token"), modelServer("ecr-ml"))
	invalid := withCode(r, "receiver-invalid")
	if len(invalid) != 1 {
		t.Fatalf("findings:\n%s", codes(r))
	}
	mustContain(t, invalid[0], "secret data is not valid for a Generic WebhookReceiver", "pkg/webhook/external.NewReceiver")
}

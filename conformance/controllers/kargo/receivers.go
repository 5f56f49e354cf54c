package kargo

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	_ "unsafe" // go:linkname

	kargoapi "github.com/akuity/kargo/api/v1alpha1"
	"github.com/akuity/kargo/pkg/indexer"
	"github.com/akuity/kargo/pkg/logging"
	"github.com/akuity/kargo/pkg/webhook/external"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

// The sample requests of the example platform's generic receivers, built in so that the binary
// the orchestrator runs from .conformance/bin needs no path back to its sources.
//
//go:embed requests/*.json
var builtInRequests embed.FS

// Sample is a request a generic receiver is sent: requests/<receiver name>.json.
type Sample struct {
	Comment string              `json:"comment"`
	Method  string              `json:"method"`
	Headers map[string][]string `json:"headers"`
	Query   string              `json:"query"`
	Body    any                 `json:"body"`
}

// LoadSamples reads every <receiver name>.json of dir, or the built-in ones when dir is "".
func LoadSamples(dir string) (map[string]Sample, error) {
	var fsys fs.FS = builtInRequests
	pattern := "requests/*.json"
	if dir != "" {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return nil, fmt.Errorf("--requests %s is not a readable directory", dir)
		}
		fsys, pattern = os.DirFS(dir), "*.json"
	}
	files, err := fs.Glob(fsys, pattern)
	if err != nil {
		return nil, err
	}
	samples := map[string]Sample{}
	for _, file := range files {
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, err
		}
		var s Sample
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, fmt.Errorf("%s is not a sample request {comment, method, headers, query, body}: %w", file, err)
		}
		samples[strings.TrimSuffix(path.Base(file), ".json")] = s
	}
	return samples, nil
}

// ReceiverAnswer is what Kargo's webhook server answered one request: per action of a generic
// receiver, its result; for other receivers, the Warehouses it refreshed.
type ReceiverAnswer struct {
	Source    string   `json:"source"`
	Kind      string   `json:"kind"`
	Namespace string   `json:"namespace,omitempty"`
	Name      string   `json:"name"`
	Receiver  string   `json:"receiver"`
	Request   string   `json:"request"`
	Status    int      `json:"status"`
	Results   []string `json:"results,omitempty"`
	Refreshed []string `json:"refreshed"`
}

const (
	// webhookBaseURL is the management controller's EXTERNAL_WEBHOOK_SERVER_BASE_URL here.
	webhookBaseURL = "https://kargo-webhooks.conformance.invalid"
	// systemResourcesNamespace is Kargo's default SYSTEM_RESOURCES_NAMESPACE, where the
	// ClusterConfig's receivers read their Secrets (external.ServerConfigFromEnv).
	systemResourcesNamespace = "kargo-system-resources"
	// standIn is the secret value of a Secret the manifests do not hold, so that what the
	// receiver does with a request is still decided (the missing Secret is a finding of its own).
	standIn = "conformance-stand-in-secret"
)

// globalLogger is Kargo's process-wide logger (pkg/logging): the webhook server logs every
// action's error through it, with the request's context, which this suite does not make. Linked
// so that the errors are recorded into findings instead of printed on stderr.
//
//go:linkname globalLogger github.com/akuity/kargo/pkg/logging.globalLogger
var globalLogger *logging.Logger

// logRecorder keeps what Kargo logs at error level.
type logRecorder struct {
	mu      sync.Mutex
	entries []string
}

func (l *logRecorder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, strings.TrimSpace(string(p)))
	return len(p), nil
}

func (l *logRecorder) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.entries
	l.entries = nil
	return out
}

var kargoLog = &logRecorder{}

func init() {
	encoder := zapcore.NewConsoleEncoder(zapcore.EncoderConfig{MessageKey: "msg"})
	globalLogger = logging.Wrap(zap.New(zapcore.NewCore(encoder, zapcore.AddSync(kargoLog), zapcore.ErrorLevel)))
}

// receiverConfig is one ClusterConfig or ProjectConfig with its receivers.
type receiverConfig struct {
	obj       *suite.Object
	project   string // "" for the ClusterConfig
	namespace string // where its receivers' Secrets are
	receivers []kargoapi.WebhookReceiverConfig
	details   []kargoapi.WebhookReceiverDetails
}

// CheckReceivers runs every webhook receiver of the ClusterConfig and the ProjectConfigs through
// Kargo's own code, as the management controller and the external webhook server do:
//   - external.NewReceiver, what the ClusterConfig and ProjectConfig reconcilers call for every
//     receiver (syncWebhookReceivers): a Secret it cannot read leaves the config not Ready and
//     gives the receiver no URL, so nothing it covers is refreshed on push;
//   - the server (external.NewServer), routing a request to the receiver by the path the
//     reconciler published: for a generic receiver its sample request (requests/<name>.json, or an
//     empty JSON object), every action through handleAction (whenExpressionMet, the selectors
//     through listUniqueObjects and evalAsString, refreshObjects); for a GitHub receiver, a signed
//     push to every Git repository a Warehouse it covers subscribes to.
//
// A Warehouse the library says a receiver covers (annotation gitops-platform.io/webhook-receivers)
// must be refreshed by that request.
func CheckReceivers(ctx context.Context, r *Report, o *Objects, samples map[string]Sample) error {
	configs := receiverConfigs(o)
	if len(configs) == 0 {
		return nil
	}
	c, err := receiverClient(o)
	if err != nil {
		return err
	}
	for _, cfg := range configs {
		for i, rc := range cfg.receivers {
			r.count("webhook receivers", 1)
			at := fmt.Sprintf("/spec/webhookReceivers/%d", i)
			receiver, err := external.NewReceiver(ctx, c, c, webhookBaseURL, cfg.project, cfg.namespace, rc)
			if err != nil && secretMissing(err) {
				r.add(cfg.obj, at+"/"+receiverType(rc)+"/secretRef/name", "receiver-secret-missing", upstream("pkg/webhook/external", "NewReceiver"),
					"receiver %q: kargo cannot read its secret %s/%s (%s): the %s is not ready, the receiver has no url and refreshes nothing; "+
						"the warehouses it covers (%s) are found only by polling at their interval",
					rc.Name, cfg.namespace, secretName(rc), oneLine(err), strings.ToLower(cfg.obj.Kind), coveredText(covered(o, cfg, rc.Name)))
				if err = c.Create(ctx, standInSecret(cfg.namespace, secretName(rc))); err == nil {
					r.count("webhook receivers evaluated with a stand-in secret", 1)
					receiver, err = external.NewReceiver(ctx, c, c, webhookBaseURL, cfg.project, cfg.namespace, rc)
				}
			}
			if err != nil {
				r.add(cfg.obj, at, "receiver-invalid", upstream("pkg/webhook/external", "NewReceiver"),
					"receiver %q: kargo cannot build it (%s): the %s is not ready and the receiver refreshes nothing", rc.Name, oneLine(err), strings.ToLower(cfg.obj.Kind))
				continue
			}
			cfg.details = append(cfg.details, receiver.GetDetails())
		}
		if err := publish(ctx, c, cfg); err != nil {
			return err
		}
	}
	url, stop, err := serve(ctx, c)
	if err != nil {
		return err
	}
	defer stop()
	for _, cfg := range configs {
		for i, rc := range cfg.receivers {
			details := detailsOf(cfg, rc.Name)
			if details == nil {
				continue
			}
			switch {
			case rc.Generic != nil:
				if err := sendGeneric(ctx, r, c, o, url, cfg, i, rc, *details, samples); err != nil {
					return err
				}
			case rc.GitHub != nil:
				if err := sendGitHubPushes(ctx, r, c, o, url, cfg, rc, *details); err != nil {
					return err
				}
			default:
				r.count("webhook receivers not sent a request (no sample for their kind)", 1)
			}
		}
	}
	return nil
}

func receiverConfigs(o *Objects) []*receiverConfig {
	var out []*receiverConfig
	if o.ClusterConfig != nil && len(o.ClusterConfig.Value.Spec.WebhookReceivers) > 0 {
		out = append(out, &receiverConfig{obj: o.ClusterConfig.Object, namespace: systemResourcesNamespace, receivers: o.ClusterConfig.Value.Spec.WebhookReceivers})
	}
	for _, p := range o.ProjectConfigs {
		if len(p.Value.Spec.WebhookReceivers) > 0 {
			// the Secret namespace is the project's (project_configs.go syncWebhookReceivers)
			out = append(out, &receiverConfig{obj: p.Object, project: p.Value.Name, namespace: p.Value.Name, receivers: p.Value.Spec.WebhookReceivers})
		}
	}
	return out
}

// receiverClient is a fake API server with the Warehouses, configs and Secrets, indexed as the
// controller's manager indexes them (indexer.WarehousesBySubscribedURLs,
// ProjectConfigsByWebhookReceiverPaths).
func receiverClient(o *Objects) (client.Client, error) {
	scheme := runtime.NewScheme()
	if err := kargoapi.AddToScheme(scheme); err != nil {
		return nil, err
	}
	if err := corev1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	objects := slices.Concat(copies(o.Warehouses), copies(o.ProjectConfigs))
	if o.ClusterConfig != nil {
		objects = append(objects, o.ClusterConfig.Value.DeepCopy())
	}
	for _, s := range o.Secrets {
		objects = append(objects, filledByItsSource(&s.Value))
	}
	return fake.NewClientBuilder().WithScheme(scheme).WithObjects(objects...).
		WithIndex(&kargoapi.Warehouse{}, indexer.WarehousesBySubscribedURLsField, indexer.WarehousesBySubscribedURLs).
		WithIndex(&kargoapi.ProjectConfig{}, indexer.ProjectConfigsByWebhookReceiverPathsField, indexer.ProjectConfigsByWebhookReceiverPaths).
		WithStatusSubresource(&kargoapi.ProjectConfig{}, &kargoapi.ClusterConfig{}).Build(), nil
}

// publish writes the receivers' details into the config's status, as the reconcilers do.
func publish(ctx context.Context, c client.Client, cfg *receiverConfig) error {
	if cfg.project == "" {
		cc := &kargoapi.ClusterConfig{}
		if err := c.Get(ctx, client.ObjectKey{Name: cfg.obj.Name}, cc); err != nil {
			return err
		}
		cc.Status.WebhookReceivers = cfg.details
		return c.Status().Update(ctx, cc)
	}
	pc := &kargoapi.ProjectConfig{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: cfg.project, Name: cfg.obj.Name}, pc); err != nil {
		return err
	}
	pc.Status.WebhookReceivers = cfg.details
	return c.Status().Update(ctx, pc)
}

// serve starts Kargo's external webhook server on a loopback port.
func serve(ctx context.Context, c client.Client) (string, func(), error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	srv := external.NewServer(external.ServerConfig{BaseURL: webhookBaseURL, SystemResourcesNamespace: systemResourcesNamespace}, c, c)
	go func() { done <- srv.Serve(ctx, l) }()
	return "http://" + l.Addr().String(), func() { cancel(); <-done }, nil
}

func detailsOf(cfg *receiverConfig, name string) *kargoapi.WebhookReceiverDetails {
	for i := range cfg.details {
		if cfg.details[i].Name == name {
			return &cfg.details[i]
		}
	}
	return nil
}

// send posts one request to the server and returns the status, the body and which Warehouses
// it refreshed (api.RefreshObject sets the refresh annotation, cleared again here).
func send(ctx context.Context, c client.Client, req *http.Request) (int, []byte, []string, error) {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, nil, err
	}
	var list kargoapi.WarehouseList
	if err := c.List(ctx, &list); err != nil {
		return 0, nil, nil, err
	}
	var refreshed []string
	for i := range list.Items {
		w := &list.Items[i]
		if _, ok := w.Annotations[kargoapi.AnnotationKeyRefresh]; !ok {
			continue
		}
		refreshed = append(refreshed, w.Namespace+"/"+w.Name)
		delete(w.Annotations, kargoapi.AnnotationKeyRefresh)
		if err := c.Update(ctx, w); err != nil {
			return 0, nil, nil, err
		}
	}
	sort.Strings(refreshed)
	return resp.StatusCode, body, refreshed, nil
}

// actionResult is the part of the generic receiver's answer (generic_actions.go actionResult) read here.
type actionResult struct {
	MatchedWhenExpression bool   `json:"matchedWhenExpression"`
	Result                string `json:"result"`
	Summary               string `json:"summary"`
	SelectedTargets       []struct {
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
	} `json:"selectedTargets"`
}

func sendGeneric(ctx context.Context, r *Report, c client.Client, o *Objects, base string, cfg *receiverConfig, index int, rc kargoapi.WebhookReceiverConfig,
	details kargoapi.WebhookReceiverDetails, samples map[string]Sample) error {
	sample, ok := samples[rc.Name]
	label := "requests/" + rc.Name + ".json"
	if !ok {
		sample, label = Sample{Body: map[string]any{}}, "an empty json object (no sample request)"
	}
	method := sample.Method
	if method == "" {
		method = http.MethodPost
	}
	body, err := json.Marshal(sample.Body)
	if err != nil {
		return err
	}
	target := base + details.Path
	if sample.Query != "" {
		target += "?" + sample.Query
	}
	req, err := http.NewRequestWithContext(ctx, method, target, bytes.NewReader(body))
	if err != nil {
		return err
	}
	for k, vs := range sample.Headers {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	kargoLog.take()
	status, answer, refreshed, err := send(ctx, c, req)
	if err != nil {
		return err
	}
	logged := kargoLog.take()
	var parsed struct {
		Results []actionResult `json:"results"`
	}
	_ = json.Unmarshal(answer, &parsed)
	a := ReceiverAnswer{Source: cfg.obj.Source, Kind: cfg.obj.Kind, Namespace: cfg.obj.Namespace, Name: cfg.obj.Name, Receiver: rc.Name,
		Request: label, Status: status, Refreshed: refreshed}
	for j, res := range parsed.Results {
		a.Results = append(a.Results, fmt.Sprintf("%s: %s", res.Result, res.Summary))
		at := fmt.Sprintf("/spec/webhookReceivers/%d/generic/actions/%d", index, j)
		if res.Result != "Error" {
			continue
		}
		var lines []string
		for _, l := range logged {
			lines = append(lines, strings.TrimSpace(strings.Split(l, "\n")[0]))
		}
		reason := strings.Join(lines, "; ")
		if strings.Contains(res.Summary, "whenExpression") {
			r.add(cfg.obj, at+"/whenExpression", "when-expression-error", upstream("pkg/webhook/external", "whenExpressionMet"),
				"receiver %q: kargo ends the action in Error on %s (%s: %s): every such request is answered %d and refreshes nothing",
				rc.Name, label, res.Summary, reason, status)
			continue
		}
		r.add(cfg.obj, at+"/targetSelectionCriteria", "selector-error", upstream("pkg/webhook/external", "genericWebhookReceiver.listUniqueObjects"),
			"receiver %q: kargo ends the action in Error on %s (%s: %s): every such request is answered %d and refreshes nothing",
			rc.Name, label, res.Summary, reason, status)
	}
	r.Receivers = append(r.Receivers, a)
	r.count("webhook requests sent", 1)
	// a sample is one request, for one repository: it must refresh one of the Warehouses the
	// library says the receiver covers
	if want := covered(o, cfg, rc.Name); ok && len(want) > 0 && len(refreshed) == 0 {
		r.add(cfg.obj, fmt.Sprintf("/spec/webhookReceivers/%d", index), "receiver-misses-warehouse", upstream("pkg/webhook/external", "genericWebhookReceiver.listUniqueObjects"),
			"receiver %q: kargo refreshes none of the warehouses its annotation %s says it covers (%s) on %s: new versions are found only by polling",
			rc.Name, receiversAnnotation, strings.Join(want, ", "), label)
	}
	return nil
}

// sendGitHubPushes sends, for every Git subscription of every Warehouse the receiver covers, the
// push event GitHub sends for a commit to that branch touching a subscribed path, signed with the
// receiver's secret (X-Hub-Signature-256).
func sendGitHubPushes(ctx context.Context, r *Report, c client.Client, o *Objects, base string, cfg *receiverConfig, rc kargoapi.WebhookReceiverConfig,
	details kargoapi.WebhookReceiverDetails) error {
	secret := &corev1.Secret{}
	if err := c.Get(ctx, client.ObjectKey{Namespace: cfg.namespace, Name: secretName(rc)}, secret); err != nil {
		return err
	}
	for _, w := range coveredWarehouses(o, cfg, rc.Name) {
		for _, sub := range w.Value.Spec.InternalSubscriptions {
			if sub.Git == nil {
				continue
			}
			event := pushEvent(sub.Git)
			body, err := json.Marshal(event)
			if err != nil {
				return err
			}
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+details.Path, bytes.NewReader(body))
			if err != nil {
				return err
			}
			mac := hmac.New(sha256.New, secret.Data["secret"])
			mac.Write(body)
			req.Header.Set("X-GitHub-Event", "push")
			req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(mac.Sum(nil)))
			req.Header.Set("Content-Type", "application/json")
			status, _, refreshed, err := send(ctx, c, req)
			if err != nil {
				return err
			}
			label := fmt.Sprintf("a github push to %s %s", sub.Git.RepoURL, event["ref"])
			r.Receivers = append(r.Receivers, ReceiverAnswer{Source: cfg.obj.Source, Kind: cfg.obj.Kind, Namespace: cfg.obj.Namespace, Name: cfg.obj.Name,
				Receiver: rc.Name, Request: label, Status: status, Refreshed: refreshed})
			r.count("webhook requests sent", 1)
			expectRefresh(r, []string{w.Value.Namespace + "/" + w.Value.Name}, refreshed, cfg, rc.Name, label)
		}
	}
	return nil
}

// pushEvent is GitHub's push event for a commit on the subscription's branch that changes a
// file under its first included path.
func pushEvent(sub *kargoapi.GitSubscription) map[string]any {
	branch := sub.Branch
	if branch == "" {
		branch = "main"
	}
	file := "README.md"
	if len(sub.IncludePaths) > 0 {
		file = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(sub.IncludePaths[0], "glob:"), "regexp:"), "/") + "/conformance.txt"
	}
	commit := map[string]any{"id": "0123456789abcdef0123456789abcdef01234567", "modified": []string{file}}
	return map[string]any{
		"ref":         "refs/heads/" + branch,
		"repository":  map[string]any{"clone_url": sub.RepoURL, "html_url": strings.TrimSuffix(sub.RepoURL, ".git")},
		"commits":     []any{commit},
		"head_commit": commit,
	}
}

// expectRefresh reports every Warehouse the library says the receiver covers that the request
// did not refresh.
func expectRefresh(r *Report, want, refreshed []string, cfg *receiverConfig, receiver, request string) {
	got := map[string]bool{}
	for _, w := range refreshed {
		got[w] = true
	}
	for _, w := range want {
		r.count("covered warehouses checked", 1)
		if !got[w] {
			r.add(cfg.obj, "/spec/webhookReceivers", "receiver-misses-warehouse", upstream("pkg/webhook/external", "refreshWarehouses"),
				"receiver %q: kargo does not refresh warehouse %s on %s, though its annotation %s names the receiver: new versions are found only by polling",
				receiver, w, request, receiversAnnotation)
		}
	}
}

// receiversAnnotation is where the library says which receivers cover a Warehouse:
// "<receiver>" for the ClusterConfig's, "<project>/<receiver>" for a ProjectConfig's.
const receiversAnnotation = "gitops-platform.io/webhook-receivers"

func coveredWarehouses(o *Objects, cfg *receiverConfig, receiver string) []*Decoded[kargoapi.Warehouse] {
	name := receiver
	if cfg.project != "" {
		name = cfg.project + "/" + receiver
	}
	var out []*Decoded[kargoapi.Warehouse]
	for _, w := range o.Warehouses {
		for _, n := range strings.Split(w.Value.Annotations[receiversAnnotation], ",") {
			if strings.TrimSpace(n) == name {
				out = append(out, w)
			}
		}
	}
	return out
}

func covered(o *Objects, cfg *receiverConfig, receiver string) []string {
	var out []string
	for _, w := range coveredWarehouses(o, cfg, receiver) {
		out = append(out, w.Value.Namespace+"/"+w.Value.Name)
	}
	return out
}

func coveredText(warehouses []string) string {
	if len(warehouses) == 0 {
		return "none named by annotation " + receiversAnnotation
	}
	return strings.Join(warehouses, ", ")
}

func receiverType(rc kargoapi.WebhookReceiverConfig) string {
	b, _ := json.Marshal(rc)
	var m map[string]json.RawMessage
	_ = json.Unmarshal(b, &m)
	for k := range m {
		if k != "name" {
			return k
		}
	}
	return ""
}

// secretName is the Secret a receiver names, whatever its kind.
func secretName(rc kargoapi.WebhookReceiverConfig) string {
	b, _ := json.Marshal(rc)
	var m map[string]struct {
		SecretRef struct {
			Name string `json:"name"`
		} `json:"secretRef"`
	}
	_ = json.Unmarshal(b, &m)
	for _, v := range m {
		if v.SecretRef.Name != "" {
			return v.SecretRef.Name
		}
	}
	return ""
}

func secretMissing(err error) bool {
	for e := err; e != nil; {
		if apierrors.IsNotFound(e) {
			return true
		}
		u, ok := e.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		e = u.Unwrap()
	}
	return false
}

// filledByItsSource is the Secret as Kargo reads it live. The library writes a receiver's Secret
// without data when an external system fills it (annotated gitops-platform.io/credentials-source,
// the key it fills named by gitops-platform.io/secret-key): live, the Secret then holds that key,
// so it gets the stand-in value under that key alone, and Kargo's NewReceiver still decides
// whether it is the key the receiver's kind reads. Any other Secret is read as written.
func filledByItsSource(secret *corev1.Secret) *corev1.Secret {
	s := secret.DeepCopy()
	key := s.Annotations["gitops-platform.io/secret-key"]
	if s.Annotations["gitops-platform.io/credentials-source"] == "" || key == "" || len(s.Data)+len(s.StringData) > 0 {
		return s
	}
	s.Data = map[string][]byte{key: []byte(standIn)}
	return s
}

// standInSecret holds the stand-in value under every data key a receiver kind reads
// (generic, github and most: "secret"; gitlab, artifactory: "secret-token"; harbor: "auth-header").
func standInSecret(namespace, name string) *corev1.Secret {
	return &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Data: map[string][]byte{
			"secret": []byte(standIn), "secret-token": []byte(standIn), "auth-header": []byte(standIn),
		},
	}
}

// oneLine is an error on one line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.Split(err.Error(), "\n")[0]), " ")
}

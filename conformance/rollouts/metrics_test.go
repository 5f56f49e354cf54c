package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"
)

// manifestYAML is the objects as one multi-document YAML file.
func manifestYAML(t *testing.T, objects ...any) string {
	t.Helper()
	docs := make([]string, 0, len(objects))
	for _, o := range objects {
		data, err := yaml.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(data))
	}
	return strings.Join(docs, "---\n")
}

// analyze writes objects (typed values of Argo Rollouts' own types) as one manifest into a
// temporary directory and runs the manifests mode on it.
func analyze(t *testing.T, objects ...any) *Report {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.k8s.yaml"), []byte(manifestYAML(t, objects...)), 0o644); err != nil {
		t.Fatal(err)
	}
	read, err := readManifests(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := newReport()
	checkManifests(read, r)
	return r
}

func codes(r *Report) []string {
	r.Sort()
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Path+" "+f.Code)
	}
	return out
}

func phase(t *testing.T, r *Report, metric, c string) string {
	t.Helper()
	for _, e := range r.Evaluations {
		if e.Metric == metric && e.Case == c {
			return e.Phase
		}
	}
	t.Fatalf("no evaluation of %s on %s in %+v", metric, c, r.Evaluations)
	return ""
}

// promTemplate is an AnalysisTemplate with one Prometheus metric measuring the error rate of
// {{args.cluster}}, with the given success condition, and an unrelated ConfigMap beside it.
func promTemplate(annotations map[string]string, condition string) []any {
	tmpl := &v1alpha1.AnalysisTemplate{
		TypeMeta:   metav1.TypeMeta{APIVersion: "argoproj.io/v1alpha1", Kind: "AnalysisTemplate"},
		ObjectMeta: metav1.ObjectMeta{Name: "error-rate", Namespace: "shop", Annotations: annotations},
		Spec: v1alpha1.AnalysisTemplateSpec{
			Args: []v1alpha1.Argument{{Name: "cluster"}},
			Metrics: []v1alpha1.Metric{{
				Name: "error-rate", Interval: "1m", Count: ptr.To(intstr.FromInt32(5)), SuccessCondition: condition,
				Provider: v1alpha1.MetricProvider{Prometheus: &v1alpha1.PrometheusMetric{
					Address: "http://prometheus.monitoring.svc:9090",
					Query:   `sum(rate(errors_total{cluster="{{args.cluster}}"}[5m]))`,
				}},
			}},
		},
	}
	unrelated := &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: metav1.ObjectMeta{Name: "unrelated"}}
	return []any{tmpl, unrelated}
}

func outcomesAnnotation(noData, nan string) map[string]string {
	return map[string]string{OutcomesAnnotation: `{"error-rate":{"noData":"` + noData + `","nan":"` + nan + `"}}`}
}

func TestPrometheusUnguardedIndexErrorsOnNoSeries(t *testing.T) {
	r := analyze(t, promTemplate(nil, "result[0] < 0.05")...)
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 metric-error-on-answer" {
		t.Fatalf("findings %q", got)
	}
	f := r.Findings[0]
	if !strings.Contains(f.Message, "no-series") || !strings.Contains(f.Message, "index out of range") || !strings.HasSuffix(f.Upstream, "utils/evaluate.EvaluateResult") {
		t.Fatalf("finding %+v", f)
	}
	if phase(t, r, "error-rate", caseBelow) != "Successful" || phase(t, r, "error-rate", caseAbove) != "Failed" || phase(t, r, "error-rate", caseNaN) != "Failed" {
		t.Fatalf("evaluations %+v", r.Evaluations)
	}
	if r.Counted["metrics/prometheus"] != 1 || r.Counted["objects"] != 2 || r.Counted["AnalysisTemplate"] != 1 {
		t.Fatalf("counted %v", r.Counted)
	}
}

func TestPrometheusGuardedConditionPasses(t *testing.T) {
	r := analyze(t, promTemplate(nil, "len(result) > 0 && result[0] < 0.05")...)
	if len(r.Findings) != 0 {
		t.Fatalf("findings %v", codes(r))
	}
	if phase(t, r, "error-rate", caseNoSeries) != "Failed" {
		t.Fatalf("evaluations %+v", r.Evaluations)
	}
}

func TestPrometheusConditionNoAnswerPasses(t *testing.T) {
	r := analyze(t, promTemplate(nil, "len(result) > 0 && result[0] < 0.05 && result[0] > 0.05")...)
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 healthy-answer-not-passing" {
		t.Fatalf("findings %q", got)
	}
}

func TestOutcomesAnnotationMismatch(t *testing.T) {
	r := analyze(t, promTemplate(outcomesAnnotation("Inconclusive", "Failed"), "len(result) > 0 && result[0] < 0.05")...)
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 metric-outcome-mismatch" {
		t.Fatalf("findings %q", got)
	}
	if !strings.Contains(r.Findings[0].Message, `documents "Inconclusive" on no-series, rollouts decides Failed`) {
		t.Fatalf("message %q", r.Findings[0].Message)
	}
}

func TestOutcomesAnnotationMatch(t *testing.T) {
	r := analyze(t, promTemplate(outcomesAnnotation("Failed", "Failed"), "len(result) > 0 && result[0] < 0.05")...)
	if len(r.Findings) != 0 {
		t.Fatalf("findings %v", codes(r))
	}
}

func TestOutcomesAnnotationOnUnguardedCondition(t *testing.T) {
	r := analyze(t, promTemplate(outcomesAnnotation("Failed", "Failed"), "result[0] < 0.05")...)
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 metric-error-on-answer,/spec/metrics/0 metric-outcome-mismatch" {
		t.Fatalf("findings %q", got)
	}
}

func TestUnresolvedArgument(t *testing.T) {
	objs := promTemplate(nil, "len(result) > 0")
	objs[0].(*v1alpha1.AnalysisTemplate).Spec.Metrics[0].Provider.Prometheus.Query = `sum(rate(errors_total{cluster="{{args.region}}"}[5m]))`
	r := analyze(t, objs...)
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 metric-args-unresolved" {
		t.Fatalf("findings %q", got)
	}
	if !strings.Contains(r.Findings[0].Message, "failed to resolve {{args.region}}") {
		t.Fatalf("message %q", r.Findings[0].Message)
	}
}

func TestInvalidMetricSpec(t *testing.T) {
	// count below failureLimit is refused by ValidateMetric before anything is measured.
	objs := promTemplate(nil, "len(result) > 0")
	m := &objs[0].(*v1alpha1.AnalysisTemplate).Spec.Metrics[0]
	m.Count, m.FailureLimit = ptr.To(intstr.FromInt32(1)), ptr.To(intstr.FromInt32(2))
	r := analyze(t, objs...)
	if got := strings.Join(codes(r), ","); got != "/spec/metrics metric-spec-invalid" {
		t.Fatalf("findings %q", got)
	}
}

// webTemplate is a ClusterAnalysisTemplate with one web metric reading jsonPath of the gateway's
// version answer, with an Authorization header from a secret-backed argument.
func webTemplate(condition, jsonPath string) *v1alpha1.ClusterAnalysisTemplate {
	return &v1alpha1.ClusterAnalysisTemplate{
		TypeMeta:   metav1.TypeMeta{APIVersion: "argoproj.io/v1alpha1", Kind: "ClusterAnalysisTemplate"},
		ObjectMeta: metav1.ObjectMeta{Name: "version"},
		Spec: v1alpha1.AnalysisTemplateSpec{
			Args: []v1alpha1.Argument{{Name: "version"}, {Name: "token", ValueFrom: &v1alpha1.ValueFrom{
				SecretKeyRef: &v1alpha1.SecretKeyRef{Name: "probe", Key: "token"}}}},
			Metrics: []v1alpha1.Metric{{
				Name: "version", SuccessCondition: condition,
				Provider: v1alpha1.MetricProvider{Web: &v1alpha1.WebMetric{
					URL: "https://gateway.example.internal/version?full=1", JSONPath: jsonPath,
					Headers: []v1alpha1.WebMetricHeader{{Key: "Authorization", Value: "Bearer {{args.token}}"}},
				}},
			}},
		},
	}
}

func TestWebVersionCheckPasses(t *testing.T) {
	r := analyze(t, webTemplate("result == '{{args.version}}'", "{$.version}"))
	if len(r.Findings) != 0 {
		t.Fatalf("findings %v", codes(r))
	}
	if phase(t, r, "version", caseJSON200) != "Successful" || phase(t, r, "version", caseJSON500) != "Error" || phase(t, r, "version", caseNonJSON200) != "Successful" {
		t.Fatalf("evaluations %+v", r.Evaluations)
	}
	if r.Counted["ClusterAnalysisTemplate"] != 1 || r.Counted["metrics/web"] != 1 {
		t.Fatalf("counted %v", r.Counted)
	}
}

func TestWebUnquotedArgumentErrors(t *testing.T) {
	r := analyze(t, webTemplate("result == {{args.version}}", "{$.version}"))
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 metric-error-on-answer" {
		t.Fatalf("findings %q", got)
	}
	if !strings.HasSuffix(r.Findings[0].Upstream, "metricproviders/webmetric.Provider.Run") {
		t.Fatalf("upstream %q", r.Findings[0].Upstream)
	}
}

func TestWebConditionThatNeverPasses(t *testing.T) {
	r := analyze(t, webTemplate("result == 'ready' && result == 'done'", "{$.status}"))
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 healthy-answer-not-passing" {
		t.Fatalf("findings %q", got)
	}
}

func TestWebBadJSONPath(t *testing.T) {
	r := analyze(t, webTemplate("true", "{$.version"))
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0/provider/web/jsonPath metric-provider-invalid" {
		t.Fatalf("findings %q", got)
	}
}

func TestJobMetricNotEvaluated(t *testing.T) {
	r := analyze(t, &v1alpha1.AnalysisTemplate{
		TypeMeta:   metav1.TypeMeta{APIVersion: "argoproj.io/v1alpha1", Kind: "AnalysisTemplate"},
		ObjectMeta: metav1.ObjectMeta{Name: "smoke", Namespace: "shop"},
		Spec: v1alpha1.AnalysisTemplateSpec{Metrics: []v1alpha1.Metric{{
			Name: "smoke",
			Provider: v1alpha1.MetricProvider{Job: &v1alpha1.JobMetric{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{
				Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
			}}}},
		}}},
	})
	if len(r.Findings) != 0 || r.Counted["metrics/job (not evaluated)"] != 1 || len(r.Evaluations) != 0 {
		t.Fatalf("findings %v counted %v", codes(r), r.Counted)
	}
}

func TestThreshold(t *testing.T) {
	for condition, want := range map[string]float64{
		"result[0] < 0.05":                      0.05,
		"len(result) == 0 || result[0] >= 0.99": 0.99,
		"result == 'v1.2'":                      0,
		"true":                                  0,
	} {
		if got := threshold(condition); got != want {
			t.Errorf("threshold(%q) = %v, want %v", condition, got, want)
		}
	}
}

func TestPrometheusRangeQueryAnswersAMatrix(t *testing.T) {
	objs := promTemplate(nil, "len(result) > 0 && all(result, {# < 0.05})")
	objs[0].(*v1alpha1.AnalysisTemplate).Spec.Metrics[0].Provider.Prometheus.RangeQuery = &v1alpha1.PrometheusRangeQueryArgs{
		Start: "now() - duration('5m')", End: "now()", Step: "1m"}
	r := analyze(t, objs...)
	if len(r.Findings) != 0 {
		t.Fatalf("findings %v", codes(r))
	}
	if phase(t, r, "error-rate", caseBelow) != "Successful" || phase(t, r, "error-rate", caseAbove) != "Failed" || phase(t, r, "error-rate", caseNoSeries) != "Failed" {
		t.Fatalf("evaluations %+v", r.Evaluations)
	}
}

func TestWebURLWithoutHTTPSchemeErrors(t *testing.T) {
	tmpl := webTemplate("true", "{$}")
	tmpl.Spec.Metrics[0].Provider.Web.URL = "gateway.example.internal/version?full=1"
	r := analyze(t, tmpl)
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 metric-error-on-answer" {
		t.Fatalf("findings %q", got)
	}
	if !strings.Contains(r.Findings[0].Message, "unsupported protocol scheme") {
		t.Fatalf("message %q", r.Findings[0].Message)
	}
}

// A dry-run rule written as a metric's name matches every metric whose name contains it.
func TestDryRunRuleMatchingAnotherMetric(t *testing.T) {
	objs := promTemplate(nil, "len(result) > 0 && result[0] < 0.05")
	tmpl := objs[0].(*v1alpha1.AnalysisTemplate)
	probe := tmpl.Spec.Metrics[0]
	probe.Name = "soak-probe"
	soak := v1alpha1.Metric{Name: "soak", InitialDelay: "1h", Provider: v1alpha1.MetricProvider{Job: &v1alpha1.JobMetric{}}}
	tmpl.Spec.Metrics = []v1alpha1.Metric{soak, probe}
	tmpl.Spec.DryRun = []v1alpha1.DryRun{{MetricName: "soak"}}
	r := analyze(t, objs...)
	var dry []Finding
	for _, f := range r.Findings {
		if f.Code == "dry-run-rule-matches-another-metric" {
			dry = append(dry, f)
		}
	}
	if len(dry) != 1 || dry[0].Path != "/spec/dryRun/0/metricName" || !strings.Contains(dry[0].Message, `"soak" also matches metric "soak-probe"`) ||
		!strings.HasSuffix(dry[0].Upstream, "utils/analysis.GetDryRunMetrics") {
		t.Fatalf("findings %+v", r.Findings)
	}
	// anchored, it names the soak alone
	tmpl.Spec.DryRun = []v1alpha1.DryRun{{MetricName: "^soak$"}}
	for _, f := range analyze(t, objs...).Findings {
		if strings.HasPrefix(f.Code, "dry-run") {
			t.Fatalf("finding %+v", f)
		}
	}
}

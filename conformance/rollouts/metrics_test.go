package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// analyze writes one manifest into a temporary directory and runs the manifests mode on it.
func analyze(t *testing.T, manifest string) *Report {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.k8s.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	objects, err := readManifests(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := newReport()
	checkManifests(objects, r)
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

func promTemplate(annotations, condition string) string {
	return `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata:
  name: error-rate
  namespace: shop
` + annotations + `spec:
  args:
    - name: cluster
  metrics:
    - name: error-rate
      interval: 1m
      count: 5
      successCondition: "` + condition + `"
      provider:
        prometheus:
          address: http://prometheus.monitoring.svc:9090
          query: sum(rate(errors_total{cluster="{{args.cluster}}"}[5m]))
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: unrelated
`
}

func TestPrometheusUnguardedIndexErrorsOnNoSeries(t *testing.T) {
	r := analyze(t, promTemplate("", "result[0] < 0.05"))
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
	r := analyze(t, promTemplate("", "len(result) > 0 && result[0] < 0.05"))
	if len(r.Findings) != 0 {
		t.Fatalf("findings %v", codes(r))
	}
	if phase(t, r, "error-rate", caseNoSeries) != "Failed" {
		t.Fatalf("evaluations %+v", r.Evaluations)
	}
}

func TestPrometheusConditionNoAnswerPasses(t *testing.T) {
	r := analyze(t, promTemplate("", "len(result) > 0 && result[0] < 0.05 && result[0] > 0.05"))
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 healthy-answer-not-passing" {
		t.Fatalf("findings %q", got)
	}
}

func TestOutcomesAnnotationMismatch(t *testing.T) {
	annotations := `  annotations:
    gitops-platform.io/metric-outcomes: '{"error-rate":{"noData":"Inconclusive","nan":"Failed"}}'
`
	r := analyze(t, promTemplate(annotations, "len(result) > 0 && result[0] < 0.05"))
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 metric-outcome-mismatch" {
		t.Fatalf("findings %q", got)
	}
	if !strings.Contains(r.Findings[0].Message, `documents "Inconclusive" on no-series, rollouts decides Failed`) {
		t.Fatalf("message %q", r.Findings[0].Message)
	}
}

func TestOutcomesAnnotationMatch(t *testing.T) {
	annotations := `  annotations:
    gitops-platform.io/metric-outcomes: '{"error-rate":{"noData":"Failed","nan":"Failed"}}'
`
	r := analyze(t, promTemplate(annotations, "len(result) > 0 && result[0] < 0.05"))
	if len(r.Findings) != 0 {
		t.Fatalf("findings %v", codes(r))
	}
}

func TestOutcomesAnnotationOnUnguardedCondition(t *testing.T) {
	annotations := `  annotations:
    gitops-platform.io/metric-outcomes: '{"error-rate":{"noData":"Failed","nan":"Failed"}}'
`
	r := analyze(t, promTemplate(annotations, "result[0] < 0.05"))
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 metric-error-on-answer,/spec/metrics/0 metric-outcome-mismatch" {
		t.Fatalf("findings %q", got)
	}
}

func TestUnresolvedArgument(t *testing.T) {
	r := analyze(t, strings.Replace(promTemplate("", "len(result) > 0"), "{{args.cluster}}", "{{args.region}}", 1))
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 metric-args-unresolved" {
		t.Fatalf("findings %q", got)
	}
	if !strings.Contains(r.Findings[0].Message, "failed to resolve {{args.region}}") {
		t.Fatalf("message %q", r.Findings[0].Message)
	}
}

func TestInvalidMetricSpec(t *testing.T) {
	// count below failureLimit is refused by ValidateMetric before anything is measured.
	manifest := strings.Replace(promTemplate("", "len(result) > 0"), "      count: 5\n", "      count: 1\n      failureLimit: 2\n", 1)
	r := analyze(t, manifest)
	if got := strings.Join(codes(r), ","); got != "/spec/metrics metric-spec-invalid" {
		t.Fatalf("findings %q", got)
	}
}

func webTemplate(condition, jsonPath string) string {
	return `apiVersion: argoproj.io/v1alpha1
kind: ClusterAnalysisTemplate
metadata:
  name: version
spec:
  args:
    - name: version
    - name: token
      valueFrom:
        secretKeyRef: {name: probe, key: token}
  metrics:
    - name: version
      successCondition: "` + condition + `"
      provider:
        web:
          url: https://gateway.example.internal/version?full=1
          jsonPath: "` + jsonPath + `"
          headers:
            - key: Authorization
              value: "Bearer {{args.token}}"
`
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
	r := analyze(t, `apiVersion: argoproj.io/v1alpha1
kind: AnalysisTemplate
metadata: {name: smoke, namespace: shop}
spec:
  metrics:
    - name: smoke
      provider:
        job:
          spec:
            template:
              spec:
                restartPolicy: Never
                containers: [{name: c, image: busybox}]
`)
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
	manifest := strings.Replace(promTemplate("", "len(result) > 0 && all(result, {# < 0.05})"), "          query:", "          rangeQuery: {start: \"now() - duration('5m')\", end: \"now()\", step: 1m}\n          query:", 1)
	r := analyze(t, manifest)
	if len(r.Findings) != 0 {
		t.Fatalf("findings %v", codes(r))
	}
	if phase(t, r, "error-rate", caseBelow) != "Successful" || phase(t, r, "error-rate", caseAbove) != "Failed" || phase(t, r, "error-rate", caseNoSeries) != "Failed" {
		t.Fatalf("evaluations %+v", r.Evaluations)
	}
}

func TestWebURLWithoutHTTPSchemeErrors(t *testing.T) {
	r := analyze(t, strings.Replace(webTemplate("true", "{$}"), "https://gateway.example.internal", "gateway.example.internal", 1))
	if got := strings.Join(codes(r), ","); got != "/spec/metrics/0 metric-error-on-answer" {
		t.Fatalf("findings %q", got)
	}
	if !strings.Contains(r.Findings[0].Message, "unsupported protocol scheme") {
		t.Fatalf("message %q", r.Findings[0].Message)
	}
}

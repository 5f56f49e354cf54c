package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	"github.com/sirupsen/logrus"
	"k8s.io/utils/ptr"

	analysisutil "github.com/argoproj/argo-rollouts/utils/analysis"
)

const (
	rolloutsModule = "github.com/argoproj/argo-rollouts@v1.9.1"
	// OutcomesAnnotation documents, per metric, the phase a no-data and a NaN answer end in.
	OutcomesAnnotation = "gitops-platform.io/metric-outcomes"
	// StandInValue fills an argument the template leaves to the caller (Kargo passes it at
	// verification time); a secret-backed argument gets StandInSecret, as the controller's own
	// getResolvedMetricsWithoutSecrets does with "temp-for-secret".
	StandInValue  = "x"
	StandInSecret = "stand-in-secret"
)

func upstream(pkg, fn string) string {
	return fmt.Sprintf("%s github.com/argoproj/argo-rollouts/%s.%s", rolloutsModule, pkg, fn)
}

// outcome is what the library documents for one metric in the OutcomesAnnotation.
type outcome struct {
	NoData string `json:"noData"`
	NaN    string `json:"nan"`
}

// template is what AnalysisTemplate and ClusterAnalysisTemplate share.
type template struct {
	Metadata struct {
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec v1alpha1.AnalysisTemplateSpec `json:"spec"`
}

// quietLog is the logrus entry the providers log through; their warnings are not findings.
func quietLog() logrus.Entry {
	logger := logrus.New()
	logger.SetOutput(io.Discard)
	return *logrus.NewEntry(logger)
}

// checkAnalysisTemplate evaluates every metric of one (Cluster)AnalysisTemplate on recorded answers.
func checkAnalysisTemplate(obj Object, r *Report, web *webServer) {
	r.Count(obj.Kind)
	var t template
	if err := json.Unmarshal(obj.JSON, &t); err != nil {
		r.Add(obj.Finding("/spec", "template-undecodable", upstream("pkg/apis/rollouts/v1alpha1", "AnalysisTemplateSpec"), "the %s does not decode into rollouts' own type: %v", strings.ToLower(obj.Kind), err))
		return
	}
	outcomes := map[string]outcome{}
	if text, ok := t.Metadata.Annotations[OutcomesAnnotation]; ok {
		if err := json.Unmarshal([]byte(text), &outcomes); err != nil {
			r.Add(obj.Finding("/metadata/annotations/"+escapePointer(OutcomesAnnotation), "metric-outcomes-unreadable", "std@"+runtime.Version()+" encoding/json.Unmarshal", "annotation %s is not a json object of metric name to {noData, nan}: %v", OutcomesAnnotation, err))
		}
	}
	// Resolved as the controller does before measuring (reconcileAnalysisRun): a metric whose
	// arguments do not resolve, or a spec ValidateMetrics refuses, ends the run in Error.
	args := standInArgs(t.Spec.Args)
	resolved := make([]*v1alpha1.Metric, len(t.Spec.Metrics))
	all := make([]v1alpha1.Metric, 0, len(t.Spec.Metrics))
	for i, metric := range t.Spec.Metrics {
		m, err := analysisutil.ResolveMetricArgs(metric, args)
		if err != nil {
			r.Add(obj.Finding(fmt.Sprintf("/spec/metrics/%d", i), "metric-args-unresolved", upstream("utils/analysis", "ResolveMetricArgs"), "metric %q: the analysis run ends in Error before measuring: %v", metric.Name, err))
			continue
		}
		resolved[i] = m
		all = append(all, *m)
	}
	if len(all) == len(t.Spec.Metrics) {
		if err := analysisutil.ValidateMetrics(all); err != nil {
			r.Add(obj.Finding("/spec/metrics", "metric-spec-invalid", upstream("utils/analysis", "ValidateMetrics"), "the analysis run ends in Error (\"analysis spec invalid\") before measuring: %v", err))
		}
	}
	checkDryRun(obj, t.Spec, r)
	for i, m := range resolved {
		if m == nil {
			continue
		}
		metric := t.Spec.Metrics[i]
		path := fmt.Sprintf("/spec/metrics/%d", i)
		r.Count("metrics")
		expected, documented := outcomes[metric.Name]
		var evals []Evaluation
		switch {
		case m.Provider.Prometheus != nil:
			r.Count("metrics/prometheus")
			evals = runPrometheus(obj, *m, r, path)
		case m.Provider.Web != nil:
			r.Count("metrics/web")
			evals = runWeb(obj, *m, r, path, web, documented && expected.NoData != "")
		case m.Provider.Job != nil:
			r.Count("metrics/job (not evaluated)")
			continue
		default:
			r.Count("metrics/other provider (not evaluated)")
			continue
		}
		for _, e := range evals {
			r.Count(fmt.Sprintf("evaluations/%s/%s/%s", e.Provider, e.Case, e.Phase))
			r.Evaluations = append(r.Evaluations, e)
		}
		if documented {
			compareOutcomes(obj, metric.Name, path, expected, evals, r)
		}
	}
}

// checkDryRun asks Argo Rollouts which metrics run dry (GetDryRunMetrics, what the analysis
// controller asks before it measures: a dry-run metric's failures never fail the run). Every
// dryRun rule is a regular expression matched anywhere in a metric's name, so a rule written as a
// name (`soak`) also makes every metric whose name contains it (`soak-probe`, `pre-soak-check`)
// run dry: a check that no longer gates anything. A rule that matches no metric errors the run.
// A metric a rule names exactly (its name, or ^name$) is the rule's intent; any other one it
// matches is a finding.
func checkDryRun(obj Object, spec v1alpha1.AnalysisTemplateSpec, r *Report) {
	if len(spec.DryRun) == 0 {
		return
	}
	decidedBy := upstream("utils/analysis", "GetDryRunMetrics")
	dry, err := analysisutil.GetDryRunMetrics(spec.DryRun, spec.Metrics)
	if err != nil {
		r.Add(obj.Finding("/spec/dryRun", "dry-run-rule-invalid", decidedBy, "the analysis run ends in Error before measuring: %v", err))
		return
	}
	for i, rule := range spec.DryRun {
		r.Count("dry-run rules")
		for _, m := range spec.Metrics {
			if !dry[m.Name] || rule.MetricName == m.Name || rule.MetricName == "^"+regexp.QuoteMeta(m.Name)+"$" {
				continue
			}
			if matched, _ := regexp.MatchString(rule.MetricName, m.Name); !matched {
				continue
			}
			r.Add(obj.Finding(fmt.Sprintf("/spec/dryRun/%d/metricName", i), "dry-run-rule-matches-another-metric", decidedBy,
				"dry-run rule %q also matches metric %q (rollouts matches every rule as an unanchored regular expression): its failures no longer fail the analysis run, so the check gates nothing; anchor the rule (^%s$)",
				rule.MetricName, m.Name, regexp.QuoteMeta(rule.MetricName)))
		}
	}
}

// standInArgs gives every argument a value the way the controller will have one at run time.
func standInArgs(args []v1alpha1.Argument) []v1alpha1.Argument {
	out := make([]v1alpha1.Argument, 0, len(args))
	for _, arg := range args {
		a := *arg.DeepCopy()
		if a.Value == nil {
			value := StandInValue
			if a.ValueFrom != nil && a.ValueFrom.SecretKeyRef != nil {
				value = StandInSecret
			}
			a.ValueFrom = nil
			a.Value = ptr.To(value)
		}
		out = append(out, a)
	}
	return out
}

// compareOutcomes reports a no-data or NaN phase that is not the one the template documents.
func compareOutcomes(obj Object, metric, path string, expected outcome, evals []Evaluation, r *Report) {
	want := map[string]string{caseNoSeries: expected.NoData, caseNaN: expected.NaN, caseWebNoValue: expected.NoData}
	upstreamFn := upstream("utils/evaluate", "EvaluateResult")
	for _, e := range evals {
		documented := want[e.Case]
		if documented == "" || documented == e.Phase {
			continue
		}
		if e.Provider == "web" {
			upstreamFn = upstream("metricproviders/webmetric", "Provider.Run")
		}
		r.Add(obj.Finding(path, "metric-outcome-mismatch", upstreamFn, "metric %q: annotation %s documents %q on %s, rollouts decides %s%s", metric, OutcomesAnnotation, documented, e.Case, e.Phase, because(e.Message)))
	}
}

func because(message string) string {
	if message == "" {
		return ""
	}
	return " (" + message + ")"
}

var (
	indexLiteral   = regexp.MustCompile(`\[\s*\d+\s*\]`)
	numericLiteral = regexp.MustCompile(`[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?`)
	stringLiteral  = regexp.MustCompile(`'([^'\\]*)'|"([^"\\]*)"`)
)

// threshold is the last number a condition compares with (list indexes like result[0] aside);
// a healthy and an unhealthy answer sit on either side of it.
func threshold(conditions ...string) float64 {
	for _, c := range conditions {
		found := numericLiteral.FindAllString(indexLiteral.ReplaceAllString(stringLiteral.ReplaceAllString(c, ""), ""), -1)
		if len(found) > 0 {
			if v, err := strconv.ParseFloat(found[len(found)-1], 64); err == nil {
				return v
			}
		}
	}
	return 0
}

func aroundThreshold(t float64) (below, above float64) {
	delta := math.Abs(t) / 2
	if delta == 0 {
		delta = 1
	}
	return t - delta, t + delta
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

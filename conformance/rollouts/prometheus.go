package main

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/argoproj/argo-rollouts/metricproviders/prometheus"
	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
)

const (
	caseBelow    = "series-below-threshold"
	caseAbove    = "series-above-threshold"
	caseNoSeries = "no-series"
	caseNaN      = "nan"
)

// recordedAPI is the Prometheus client API answering every query with one recorded answer. Only
// Query and QueryRange are implemented: they are all the provider calls (executeQuery).
type recordedAPI struct {
	v1.API
	samples []float64
}

func (a recordedAPI) Query(context.Context, string, time.Time, ...v1.Option) (model.Value, v1.Warnings, error) {
	vector := model.Vector{}
	for i, s := range a.samples {
		vector = append(vector, &model.Sample{Metric: model.Metric{"series": model.LabelValue(fmt.Sprint(i))}, Value: model.SampleValue(s), Timestamp: model.Time(0)})
	}
	return vector, nil, nil
}

func (a recordedAPI) QueryRange(context.Context, string, v1.Range, ...v1.Option) (model.Value, v1.Warnings, error) {
	matrix := model.Matrix{}
	for i, s := range a.samples {
		matrix = append(matrix, &model.SampleStream{Metric: model.Metric{"series": model.LabelValue(fmt.Sprint(i))}, Values: []model.SamplePair{{Timestamp: model.Time(0), Value: model.SampleValue(s)}}})
	}
	return matrix, nil, nil
}

type recordedCase struct {
	name    string
	samples []float64
}

// runPrometheus runs the metric through rollouts' prometheus provider once per recorded answer:
// Provider.Run -> processResponse -> evaluate.EvaluateResult decide the phase.
func runPrometheus(obj Object, m v1alpha1.Metric, r *Report, path string) []Evaluation {
	below, above := aroundThreshold(threshold(m.SuccessCondition, m.FailureCondition))
	cases := []recordedCase{
		{caseBelow, []float64{below}},
		{caseAbove, []float64{above}},
		{caseNoSeries, []float64{}},
		{caseNaN, []float64{math.NaN()}},
	}
	evalFn := upstream("utils/evaluate", "EvaluateResult")
	var evals []Evaluation
	phases := map[string]v1alpha1.AnalysisPhase{}
	for _, c := range cases {
		provider, err := prometheus.NewPrometheusProvider(recordedAPI{samples: c.samples}, quietLog(), m)
		if err != nil {
			r.Add(obj.Finding(path+"/provider/prometheus", "metric-provider-invalid", upstream("metricproviders/prometheus", "NewPrometheusProvider"), "metric %q: rollouts cannot build its prometheus provider: %v", m.Name, err))
			return nil
		}
		measurement := provider.Run(&v1alpha1.AnalysisRun{}, m)
		phases[c.name] = measurement.Phase
		evals = append(evals, Evaluation{Source: obj.Source, Kind: obj.Kind, Namespace: obj.Namespace, Name: obj.Name, Metric: m.Name, Provider: "prometheus", Case: c.name, Phase: string(measurement.Phase), Value: measurement.Value, Message: measurement.Message})
		if measurement.Phase == v1alpha1.AnalysisPhaseError {
			r.Add(obj.Finding(path, "metric-error-on-answer", evalFn, "metric %q: on %s (answer %s) the measurement ends in Error: %s; the run errors instead of passing or failing: guard the condition (e.g. len(result) > 0)", m.Name, c.name, answer(c.samples), measurement.Message))
		}
	}
	if phases[caseBelow] != v1alpha1.AnalysisPhaseSuccessful && phases[caseAbove] != v1alpha1.AnalysisPhaseSuccessful {
		r.Add(obj.Finding(path, "healthy-answer-not-passing", evalFn, "metric %q: neither a series below (%v) nor one above (%v) the threshold passes (success %q, failure %q): phases %s and %s", m.Name, below, above, m.SuccessCondition, m.FailureCondition, phases[caseBelow], phases[caseAbove]))
	}
	return evals
}

func answer(samples []float64) string {
	if len(samples) == 0 {
		return "an empty vector"
	}
	return fmt.Sprintf("a vector of %v", samples)
}

package main

import (
	"io"
	"sort"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

// The manifests reader and the report shape of CONFORMANCE-PROTOCOL.md are the suite's.
type (
	Object  = suite.Object
	Finding = suite.Finding
	Value   = suite.Value
)

func readManifests(dir string) ([]Object, error) { return suite.ReadManifests(dir) }

// Evaluation is the phase one metric ended in on one recorded answer; the suite reports every one,
// finding or not, so a reader sees what Rollouts decided and not only what went wrong.
type Evaluation struct {
	Source    string `json:"source"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Metric    string `json:"metric"`
	Provider  string `json:"provider"`
	Case      string `json:"case"`
	Phase     string `json:"phase"`
	Value     string `json:"value,omitempty"`
	Message   string `json:"message,omitempty"`
}

// Report is the protocol's report with this module's evaluations after the findings.
type Report struct {
	suite.Report
	Evaluations []Evaluation `json:"evaluations,omitempty"`
}

func newReport() *Report {
	return &Report{Report: *suite.NewReport("rollouts")}
}

// Write sorts findings (source, kind, namespace, name, path, code) and evaluations the same way so
// that two runs print the same bytes.
func (r *Report) Write(w io.Writer) error {
	r.Sort()
	return suite.Encode(w, r)
}

// Sort sorts the findings and the evaluations.
func (r *Report) Sort() {
	r.Report.Sort()
	sort.SliceStable(r.Evaluations, func(i, j int) bool {
		a, b := r.Evaluations[i], r.Evaluations[j]
		return suite.Less([][2]string{{a.Source, b.Source}, {a.Kind, b.Kind}, {a.Namespace, b.Namespace}, {a.Name, b.Name}, {a.Metric, b.Metric}, {a.Case, b.Case}})
	})
}

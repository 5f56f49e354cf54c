package main

import (
	"io"
	"sort"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

type (
	Object  = suite.Object
	Finding = suite.Finding
)

// Evaluation is what one expression evaluated to on its receiver's sample request; the report
// lists every one, finding or not, so a reader sees what Kargo would select on that request.
type Evaluation struct {
	Source     string `json:"source"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
	Receiver   string `json:"receiver"`
	Path       string `json:"path"`
	Expression string `json:"expression"`
	Result     string `json:"result"`
}

// Report is the protocol's report with this module's evaluations after the findings.
type Report struct {
	suite.Report
	Evaluations []Evaluation `json:"evaluations,omitempty"`
}

func newReport() *Report {
	return &Report{Report: *suite.NewReport("kargo-expr")}
}

// Write sorts findings and evaluations so that two runs print the same bytes.
func (r *Report) Write(w io.Writer) error {
	r.Report.Sort()
	sort.SliceStable(r.Evaluations, func(i, j int) bool {
		a, b := r.Evaluations[i], r.Evaluations[j]
		return suite.Less([][2]string{{a.Source, b.Source}, {a.Kind, b.Kind}, {a.Namespace, b.Namespace}, {a.Name, b.Name}, {a.Path, b.Path}})
	})
	return suite.Encode(w, r)
}

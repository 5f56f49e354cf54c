package main

import (
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

// Report is the protocol's report with this module's evaluations after the findings, sorted by
// source, kind, namespace, name and path.
type Report = suite.Evaluated[Evaluation]

func newReport() *Report {
	return suite.NewEvaluated("kargo-expr", func(a, b Evaluation) [][2]string {
		return [][2]string{{a.Source, b.Source}, {a.Kind, b.Kind}, {a.Namespace, b.Namespace}, {a.Name, b.Name}, {a.Path, b.Path}}
	})
}

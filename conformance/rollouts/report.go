package main

import (
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

// Report is the protocol's report with this module's evaluations after the findings, sorted by
// source, kind, namespace, name, metric and case.
type Report = suite.Evaluated[Evaluation]

func newReport() *Report {
	return suite.NewEvaluated("rollouts", func(a, b Evaluation) [][2]string {
		return [][2]string{{a.Source, b.Source}, {a.Kind, b.Kind}, {a.Namespace, b.Namespace}, {a.Name, b.Name}, {a.Metric, b.Metric}, {a.Case, b.Case}}
	})
}

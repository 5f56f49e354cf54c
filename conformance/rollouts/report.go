package main

import (
	"encoding/json"
	"io"
	"sort"
)

// Finding is one problem the upstream code reports for a synthesized object (see
// CONFORMANCE-PROTOCOL.md for the fields).
type Finding struct {
	Source     string `json:"source"`
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	Namespace  string `json:"namespace"`
	Path       string `json:"path"`
	Code       string `json:"code"`
	Message    string `json:"message"`
	Upstream   string `json:"upstream"`
}

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

// Report is the one JSON document the command prints.
type Report struct {
	Module      string         `json:"module"`
	Counted     map[string]int `json:"counted"`
	Findings    []Finding      `json:"findings"`
	Evaluations []Evaluation   `json:"evaluations,omitempty"`
}

func newReport() *Report {
	return &Report{Module: "rollouts", Counted: map[string]int{}, Findings: []Finding{}}
}

func (r *Report) count(key string) { r.Counted[key]++ }

func (r *Report) add(f Finding) { r.Findings = append(r.Findings, f) }

// write sorts findings (source, kind, namespace, name, path, code) and evaluations the same way so
// that two runs print the same bytes.
func (r *Report) write(w io.Writer) error {
	r.sort()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func (r *Report) sort() {
	sort.SliceStable(r.Findings, func(i, j int) bool {
		a, b := r.Findings[i], r.Findings[j]
		for _, p := range [][2]string{{a.Source, b.Source}, {a.Kind, b.Kind}, {a.Namespace, b.Namespace}, {a.Name, b.Name}, {a.Path, b.Path}, {a.Code, b.Code}, {a.Message, b.Message}} {
			if p[0] != p[1] {
				return p[0] < p[1]
			}
		}
		return false
	})
	sort.SliceStable(r.Evaluations, func(i, j int) bool {
		a, b := r.Evaluations[i], r.Evaluations[j]
		for _, p := range [][2]string{{a.Source, b.Source}, {a.Kind, b.Kind}, {a.Namespace, b.Namespace}, {a.Name, b.Name}, {a.Metric, b.Metric}, {a.Case, b.Case}} {
			if p[0] != p[1] {
				return p[0] < p[1]
			}
		}
		return false
	})
}

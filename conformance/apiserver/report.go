// The report shape of CONFORMANCE-PROTOCOL.md, as in conformance/rollouts/report.go.
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

// Report is the one JSON document the command prints.
type Report struct {
	Module   string         `json:"module"`
	Counted  map[string]int `json:"counted"`
	Findings []Finding      `json:"findings"`
}

func newReport() *Report {
	return &Report{Module: "apiserver", Counted: map[string]int{}, Findings: []Finding{}}
}

func (r *Report) count(key string) { r.Counted[key]++ }

func (r *Report) add(f Finding) { r.Findings = append(r.Findings, f) }

// write sorts findings (source, kind, namespace, name, path, code) so that two runs print the
// same bytes.
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
}

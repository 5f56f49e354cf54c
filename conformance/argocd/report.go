package main

import (
	"encoding/json"
	"io"
	"sort"
)

// argoCD is the module every finding's upstream function comes from; the pinned version, so a
// reader can open exactly the code that decided.
const argoCD = "github.com/argoproj/argo-cd/v3@v3.5.1"

// upstream names an Argo CD function in the form the protocol asks for.
func upstream(pkg, function string) string {
	return argoCD + " github.com/argoproj/argo-cd/v3/" + pkg + "." + function
}

// Finding is one problem Argo CD's own code reports for one synthesized object.
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
	return &Report{Module: "argocd", Counted: map[string]int{}, Findings: []Finding{}}
}

func (r *Report) count(what string, n int) { r.Counted[what] += n }

// add records a finding about obj; obj carries source, apiVersion, kind, name and namespace.
func (r *Report) add(obj *Object, path, code, message, decidedBy string) {
	r.Findings = append(r.Findings, Finding{
		Source: obj.Source, APIVersion: obj.APIVersion, Kind: obj.Kind, Name: obj.Name,
		Namespace: obj.Namespace, Path: path, Code: code, Message: message, Upstream: decidedBy,
	})
}

// write prints the report with findings in the protocol's order, so two runs are byte-identical
// (map keys are sorted by encoding/json).
func (r *Report) write(w io.Writer) error {
	sort.SliceStable(r.Findings, func(i, j int) bool {
		a, b := r.Findings[i], r.Findings[j]
		for _, p := range [][2]string{
			{a.Source, b.Source}, {a.Kind, b.Kind}, {a.Namespace, b.Namespace}, {a.Name, b.Name},
			{a.Path, b.Path}, {a.Code, b.Code}, {a.Message, b.Message},
		} {
			if p[0] != p[1] {
				return p[0] < p[1]
			}
		}
		return false
	})
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

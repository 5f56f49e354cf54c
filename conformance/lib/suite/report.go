package suite

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
)

// Exit codes of CONFORMANCE-PROTOCOL.md: findings or not, a command that ran exits ExitRan.
const (
	ExitRan    = 0
	ExitFailed = 2 // bad flags, unreadable files; the reason is on stderr
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

// Report is the one JSON document a command prints. A command that reports more embeds it: the
// embedded fields stay first in the JSON.
type Report struct {
	Module   string         `json:"module"`
	Counted  map[string]int `json:"counted"`
	Findings []Finding      `json:"findings"`
}

// NewReport starts the report of module; findings print as [] when there are none.
func NewReport(module string) *Report {
	return &Report{Module: module, Counted: map[string]int{}, Findings: []Finding{}}
}

// Count counts one more of what.
func (r *Report) Count(what string) { r.Counted[what]++ }

// Add records a finding.
func (r *Report) Add(f Finding) { r.Findings = append(r.Findings, f) }

// Sort puts the findings in the protocol's order (source, kind, namespace, name, path, code, then
// message), so that two runs print the same bytes.
func (r *Report) Sort() {
	sort.SliceStable(r.Findings, func(i, j int) bool {
		a, b := r.Findings[i], r.Findings[j]
		return Less([][2]string{{a.Source, b.Source}, {a.Kind, b.Kind}, {a.Namespace, b.Namespace}, {a.Name, b.Name}, {a.Path, b.Path}, {a.Code, b.Code}, {a.Message, b.Message}})
	})
}

// Less compares pairs of keys in order: the first pair that differs decides.
func Less(pairs [][2]string) bool {
	for _, p := range pairs {
		if p[0] != p[1] {
			return p[0] < p[1]
		}
	}
	return false
}

// Write sorts the findings and prints the report.
func (r *Report) Write(w io.Writer) error {
	r.Sort()
	return Encode(w, r)
}

// Encode prints v the way every report is printed: indented, without HTML escaping (messages
// quote values with < and >); encoding/json sorts the map keys.
func Encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Writer is a report that can print itself.
type Writer interface{ Write(io.Writer) error }

// Finish prints the report on stdout and returns the exit code: ExitRan, or ExitFailed when it
// could not be printed.
func Finish(command string, report Writer, stdout, stderr io.Writer) int {
	if err := report.Write(stdout); err != nil {
		return Fail(command, err, stderr)
	}
	return ExitRan
}

// Fail prints "<command>: <err>" on stderr and returns ExitFailed.
func Fail(command string, err error, stderr io.Writer) int {
	fmt.Fprintf(stderr, "%s: %v\n", command, err)
	return ExitFailed
}

// FinishWithoutValues is --values for a module that checks no value kind (the protocol's value
// kinds are Go parsers that other modules check): the file must be readable, as everywhere, and
// the module prints its empty report.
func FinishWithoutValues(command, valuesFile string, report Writer, stdout, stderr io.Writer) int {
	if _, err := os.ReadFile(valuesFile); err != nil {
		return Fail(command, err, stderr)
	}
	return Finish(command, report, stdout, stderr)
}

// Evaluated is the protocol's report with a module's evaluations after the findings: for modules
// that report what the upstream code decided on every input, finding or not.
type Evaluated[E any] struct {
	Report
	Evaluations []E `json:"evaluations,omitempty"`
	// order gives the pairs Less compares two evaluations by
	order func(a, b E) [][2]string
}

// NewEvaluated is an empty report of module whose evaluations sort by order's pairs.
func NewEvaluated[E any](module string, order func(a, b E) [][2]string) *Evaluated[E] {
	return &Evaluated[E]{Report: *NewReport(module), order: order}
}

// Sort sorts the findings in the protocol's order and the evaluations in the module's, so that
// two runs print the same bytes.
func (r *Evaluated[E]) Sort() {
	r.Report.Sort()
	sort.SliceStable(r.Evaluations, func(i, j int) bool { return Less(r.order(r.Evaluations[i], r.Evaluations[j])) })
}

// Write sorts the report and prints it.
func (r *Evaluated[E]) Write(w io.Writer) error {
	r.Sort()
	return Encode(w, r)
}

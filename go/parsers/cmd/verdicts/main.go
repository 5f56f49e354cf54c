// Command verdicts is Go's verdict on the values the library still decides by hand, for the
// property test that compares them in CI (conformance/property-values.ts): PromQL queries, which
// Prometheus's promql/parser cannot be compiled to WebAssembly to decide (../../README.md), and
// durations, which the library writes and reads in Go's format. It runs natively, never in the
// package.
//
// Input: a JSON array of {"kind": "promql"|"duration", "value": "..."} on stdin. Output: a JSON
// array of {"error": "...", "type": "..."} in the same order.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/prometheus/prometheus/promql/parser"
)

type value struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

type verdict struct {
	Error string `json:"error,omitempty"`
	// Type is the PromQL value type (promql/parser Expr.Type()).
	Type string `json:"type,omitempty"`
	// Seconds is a duration's length (time.ParseDuration).
	Seconds float64 `json:"seconds,omitempty"`
}

func decide(v value) verdict {
	switch v.Kind {
	case "promql":
		// the parser of Prometheus v3.5, as a server runs it by default (no experimental functions)
		e, err := parser.ParseExpr(v.Value)
		if err != nil {
			return verdict{Error: err.Error()}
		}
		return verdict{Type: string(e.Type())}
	case "duration":
		// what Argo CD (sync windows), Kargo and Argo Rollouts read durations with
		d, err := time.ParseDuration(v.Value)
		if err != nil {
			return verdict{Error: err.Error()}
		}
		return verdict{Seconds: d.Seconds()}
	}
	return verdict{Error: fmt.Sprintf("unknown kind %q", v.Kind)}
}

func main() {
	var values []value
	if err := json.NewDecoder(os.Stdin).Decode(&values); err != nil {
		fmt.Fprintf(os.Stderr, "verdicts: stdin is not a JSON array of values: %v\n", err)
		os.Exit(2)
	}
	out := make([]verdict, len(values))
	for i, v := range values {
		out[i] = decide(v)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintf(os.Stderr, "verdicts: %v\n", err)
		os.Exit(2)
	}
}

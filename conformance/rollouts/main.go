// Command rollouts runs synthesized objects through Argo Rollouts v1.9.1's own code (and the
// parsers Kargo v1.11.2 uses) and prints one JSON report (see CONFORMANCE-PROTOCOL.md).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(argv []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("rollouts", flag.ContinueOnError)
	flags.SetOutput(stderr)
	manifests := flags.String("manifests", "", "a directory of synthesized YAML")
	before := flags.String("before", "", "the same platform synthesized before a change (not compared by this module)")
	values := flags.String("values", "", "a JSON array of {kind, value, accepted} to compare with the Go parsers")
	if err := flags.Parse(argv); err != nil {
		return 2
	}
	if (*manifests == "") == (*values == "") || flags.NArg() > 0 {
		fmt.Fprintln(stderr, "rollouts: give exactly one of --manifests DIR or --values FILE")
		return 2
	}
	report := newReport()
	if *values != "" {
		vs, err := readValues(*values)
		if err != nil {
			fmt.Fprintf(stderr, "rollouts: %v\n", err)
			return 2
		}
		checkValues(filepath.Base(*values), vs, report)
	} else {
		if *before != "" {
			if info, err := os.Stat(*before); err != nil || !info.IsDir() {
				fmt.Fprintf(stderr, "rollouts: --before %s is not a readable directory\n", *before)
				return 2
			}
		}
		objects, err := readManifests(*manifests)
		if err != nil {
			fmt.Fprintf(stderr, "rollouts: %v\n", err)
			return 2
		}
		checkManifests(objects, report)
	}
	if err := report.write(stdout); err != nil {
		fmt.Fprintf(stderr, "rollouts: %v\n", err)
		return 2
	}
	return 0
}

// checkManifests evaluates every AnalysisTemplate and ClusterAnalysisTemplate.
func checkManifests(objects []Object, r *Report) {
	web := newWebServer()
	defer web.close()
	for _, obj := range objects {
		r.count("objects")
		if obj.APIVersion == "argoproj.io/v1alpha1" && (obj.Kind == "AnalysisTemplate" || obj.Kind == "ClusterAnalysisTemplate") {
			checkAnalysisTemplate(obj, r, web)
		}
	}
}

// Command rollouts runs synthesized objects through Argo Rollouts v1.9.1's own code (and the
// parsers Kargo v1.11.2 uses) and prints one JSON report (see CONFORMANCE-PROTOCOL.md).
package main

import (
	"io"
	"os"
	"path/filepath"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(argv []string, stdout, stderr io.Writer) int {
	flags := suite.NewFlags("rollouts", "a JSON array of {kind, value, accepted} to compare with the Go parsers", stderr)
	if !flags.Parse(argv) {
		return suite.ExitFailed
	}
	report := newReport()
	if flags.Values != "" {
		vs, err := readValues(flags.Values)
		if err != nil {
			return suite.Fail("rollouts", err, stderr)
		}
		checkValues(filepath.Base(flags.Values), vs, report)
	} else {
		objects, err := readManifests(flags.Manifests)
		if err != nil {
			return suite.Fail("rollouts", err, stderr)
		}
		checkManifests(objects, report)
	}
	return suite.Finish("rollouts", report, stdout, stderr)
}

// checkManifests evaluates every AnalysisTemplate and ClusterAnalysisTemplate.
func checkManifests(objects []Object, r *Report) {
	web := newWebServer()
	defer web.close()
	for _, obj := range objects {
		r.Count("objects")
		if obj.APIVersion == "argoproj.io/v1alpha1" && (obj.Kind == "AnalysisTemplate" || obj.Kind == "ClusterAnalysisTemplate") {
			checkAnalysisTemplate(obj, r, web)
		}
	}
}

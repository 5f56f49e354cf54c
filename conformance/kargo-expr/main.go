// Command kargo-expr compiles and runs the expr-lang expressions of the synthesized Kargo
// v1.11.2 generic webhook receivers with expr-lang v1.17.8 (the version Kargo's go.mod pins), as
// Kargo's pkg/webhook/external does on a request, and prints one JSON report (see
// CONFORMANCE-PROTOCOL.md). Kargo's own packages cannot be compiled here (the module proxy
// refuses github.com/akuity/kargo/api), so the few lines of Kargo around the expr-lang calls are
// restated in expressions.go and env.go, each citing the function it restates.
package main

import (
	"io"
	"os"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(argv []string, stdout, stderr io.Writer) int {
	flags := suite.NewFlags("kargo-expr", "a JSON array of {kind, value, accepted}: no kind is checked by this module", stderr)
	requests := flags.Set.String("requests", "", "a directory of sample requests, <receiver name>.json each (default: the ones built in from requests/)")
	if !flags.Parse(argv) {
		return suite.ExitFailed
	}
	report := newReport()
	if flags.Values != "" {
		return suite.FinishWithoutValues("kargo-expr", flags.Values, report, stdout, stderr)
	}
	samples, err := loadSamples(*requests)
	if err != nil {
		return suite.Fail("kargo-expr", err, stderr)
	}
	objects, err := suite.ReadManifests(flags.Manifests)
	if err != nil {
		return suite.Fail("kargo-expr", err, stderr)
	}
	checkManifests(objects, samples, report)
	return suite.Finish("kargo-expr", report, stdout, stderr)
}

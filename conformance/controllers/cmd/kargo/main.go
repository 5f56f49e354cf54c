// Command kargo runs a directory of synthesized manifests through Kargo v1.11.2's own code (see
// package kargo) and prints one JSON report (CONFORMANCE-PROTOCOL.md); progress goes to stderr.
// Exit 0 when it ran, 2 when it could not.
package main

import (
	"context"
	"io"
	"os"

	log "github.com/sirupsen/logrus"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/kargo"
	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

const command = "kargo"

func main() {
	// Argo CD's controllers log through logrus; the report is the only output on stdout
	log.SetOutput(io.Discard)
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	kargo.Cleanup()
	os.Exit(code)
}

func run(argv []string, stdout, stderr io.Writer) int {
	flags := suite.NewFlags(command, "a JSON array of {kind, value, accepted}: no kind is checked by this module", stderr)
	requests := flags.Set.String("requests", "", "a directory of sample requests, <receiver name>.json each (default: the ones built in)")
	work := flags.Set.String("work", "", "where repositories and work directories go (default: a temporary directory, removed after)")
	if !flags.Parse(argv) {
		return suite.ExitFailed
	}
	if flags.Values != "" {
		return suite.FinishWithoutValues(command, flags.Values, kargo.NewReport(), stdout, stderr)
	}
	r, err := kargo.Run(context.Background(), kargo.Options{Manifests: flags.Manifests, Before: flags.Before, Requests: *requests, Work: *work, Progress: stderr})
	if err != nil {
		return suite.Fail(command, err, stderr)
	}
	return suite.Finish(command, r, stdout, stderr)
}

// Command argocd runs a directory of synthesized manifests through Argo CD v3.5.1's own code (see
// package argocd) and prints one JSON report (CONFORMANCE-PROTOCOL.md); with --values, it judges
// sync-window schedules with Argo CD's parser. Exit 0 when it ran, 2 when it could not.
package main

import (
	"context"
	"io"
	"os"
	"path/filepath"

	log "github.com/sirupsen/logrus"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/argocd"
	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

const command = "argocd"

func main() {
	// Argo CD logs through logrus; the report is the only output on stdout.
	log.SetOutput(io.Discard)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(argv []string, stdout, stderr io.Writer) int {
	flags := suite.NewFlags(command, "a JSON array of {kind, value, accepted}: sync-window schedules (kind cron) are judged", stderr)
	namespace := flags.Set.String("namespace", "", "the hub's Argo CD namespace, where objects without a namespace go (default: where the hub's AppProjects are, else argocd)")
	if !flags.Parse(argv) {
		return suite.ExitFailed
	}
	if flags.Values != "" {
		values, err := suite.ReadValues(flags.Values)
		if err != nil {
			return suite.Fail(command, err, stderr)
		}
		r := argocd.NewReport()
		argocd.CheckValues(r, filepath.Base(flags.Values), values)
		return suite.Finish(command, r, stdout, stderr)
	}
	o := argocd.Options{Manifests: flags.Manifests, Before: flags.Before, Namespace: *namespace, Now: flags.Now}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := argocd.Run(ctx, o)
	if err != nil {
		return suite.Fail(command, err, stderr)
	}
	return suite.Finish(command, r, stdout, stderr)
}

// Command argocd runs a directory of synthesized manifests through Argo CD v3.5.1's own code:
// cluster and repository Secrets, AppProject permissions of the written Applications and sync windows; with
// --values, sync-window schedules. It prints one JSON report ({"module", "counted", "findings"})
// and exits 0 when it ran, 2 when it could not.
//
// ApplicationSet generation and, with --before, the ApplicationSet controller's reconcile are not
// run: see applications.go for why they cannot be built at v3.5.1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	log "github.com/sirupsen/logrus"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

type options struct {
	manifests string
	before    string
	values    string
	namespace string
	now       *time.Time
}

func parseFlags(args []string) (*options, error) {
	fs := flag.NewFlagSet("argocd", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := &options{}
	var now string
	fs.StringVar(&o.manifests, "manifests", "", "directory of synthesized YAML")
	fs.StringVar(&o.before, "before", "", "the same platform synthesized before a change")
	fs.StringVar(&o.values, "values", "", "JSON array of {kind, value, accepted} to judge instead of manifests")
	fs.StringVar(&o.namespace, "namespace", "argocd", "the Argo CD namespace (objects without a namespace go there)")
	fs.StringVar(&now, "now", "", "RFC3339 instant at which to evaluate sync windows")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	if (o.manifests == "") == (o.values == "") {
		return nil, errors.New("give exactly one of --manifests DIR or --values FILE")
	}
	if o.before != "" && o.manifests == "" {
		return nil, errors.New("--before needs --manifests")
	}
	if now != "" {
		t, err := time.Parse(time.RFC3339, now)
		if err != nil {
			return nil, fmt.Errorf("--now: %w", err)
		}
		o.now = &t
	}
	return o, nil
}

func run(ctx context.Context, o *options) (*Report, error) {
	r := newReport()
	if o.values != "" {
		values, err := readValues(o.values)
		if err != nil {
			return nil, err
		}
		checkValues(r, filepath.Base(o.values), values)
		return r, nil
	}
	fleets, err := loadFleets(o.manifests, o.namespace)
	if err != nil {
		return nil, err
	}
	for _, fleet := range fleets {
		r.count("argoCDInstances", 1)
		if err := checkFleet(ctx, r, fleet, o.now); err != nil {
			return nil, err
		}
	}
	if o.before != "" {
		// Read, so a bad directory fails loudly, but not reconciled (applications.go).
		if _, err := loadFleets(o.before, o.namespace); err != nil {
			return nil, fmt.Errorf("--before: %w", err)
		}
		r.count("fleetChangesNotReconciled", 1)
	}
	return r, nil
}

// loadFleets reads a manifests directory as the Argo CD instances it is applied to.
func loadFleets(dir, hubNamespace string) ([]*Fleet, error) {
	objects, err := loadDir(dir)
	if err != nil {
		return nil, err
	}
	names, by := instances(objects)
	fleets := make([]*Fleet, 0, len(names))
	for _, name := range names {
		f, err := newFleet(name, by[name], controllerNamespace(name, by[name], hubNamespace))
		if err != nil {
			return nil, err
		}
		fleets = append(fleets, f)
	}
	return fleets, nil
}

// checkFleet runs the checks of one synthesized platform.
func checkFleet(ctx context.Context, r *Report, fleet *Fleet, now *time.Time) error {
	argo := newArgo(ctx, fleet)
	checkClusterSecrets(r, fleet)
	checkRepositorySecrets(ctx, r, fleet, argo)
	apps := applications(r, fleet)
	if err := checkPermissions(ctx, r, fleet, argo, apps); err != nil {
		return err
	}
	checkSyncWindows(r, fleet, apps, now)
	return nil
}

func main() {
	// Argo CD logs through logrus; the report is the only output on stdout.
	log.SetOutput(io.Discard)
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		os.Exit(suite.Fail(command, err, os.Stderr))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := run(ctx, o)
	if err != nil {
		os.Exit(suite.Fail(command, err, os.Stderr))
	}
	if code := suite.Finish(command, r, os.Stdout, os.Stderr); code != suite.ExitRan {
		os.Exit(code)
	}
}

// command prefixes every reason the command gives on stderr.
const command = "argocd conformance"

// Package kargo runs a directory of synthesized manifests through Kargo v1.11.2's own code: the
// webhook receivers of the ClusterConfig and ProjectConfigs through the external webhook server,
// every Stage's promotions through the Promotion webhook, the promotion controller and the
// built-in steps against local repositories, chart servers and Argo CD, and Freight over simulated
// time through the functions that decide which Freight a Stage may take.
package kargo

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/argocd"
)

// Options of one run.
type Options struct {
	// Manifests is the directory of synthesized YAML.
	Manifests string
	// Before is the same platform synthesized before a change ("": no change).
	Before string
	// Requests is a directory of sample requests for generic receivers ("": the built-in ones).
	Requests string
	// Work is where repositories and work directories go ("": a temporary directory, removed after).
	Work string
	// Progress receives one line per promotion and release as they start.
	Progress io.Writer
	// Checks are the checks to run ("receivers", "promotions", "releases"; nil: all).
	Checks []string
}

func (o Options) runs(check string) bool {
	if o.Checks == nil {
		return true
	}
	for _, c := range o.Checks {
		if c == check {
			return true
		}
	}
	return false
}

// Run runs every check.
func Run(ctx context.Context, o Options) (*Report, error) {
	if o.Progress == nil {
		o.Progress = io.Discard
	}
	objs, err := LoadObjects(o.Manifests)
	if err != nil {
		return nil, err
	}
	r := NewReport()
	r.count("objects", objs.Count)
	work := o.Work
	if work == "" {
		if work, err = os.MkdirTemp("", "kargo-conformance-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(work)
	}
	restoreTemp, err := tempDirUnder(work)
	if err != nil {
		return nil, err
	}
	defer restoreTemp()
	// first: it points this process's proxy and CA at the local servers, which Go's HTTP clients
	// read once
	var world *World
	if len(objs.Stages) > 0 && (o.runs("promotions") || o.runs("releases")) {
		if world, err = NewWorld(work); err != nil {
			return nil, err
		}
		defer world.Close()
	}
	samples, err := LoadSamples(o.Requests)
	if err != nil {
		return nil, err
	}
	if o.runs("receivers") {
		if err := CheckReceivers(ctx, r, objs, samples); err != nil {
			return nil, fmt.Errorf("webhook receivers: %w", err)
		}
	}
	if world == nil {
		return r, nil
	}
	argo, err := NewArgoCDs(ctx, o.Manifests, world.Git)
	if err != nil {
		return nil, fmt.Errorf("argo cd's applications: %w", err)
	}
	windows, err := argocd.LoadWindows(ctx, o.Manifests, "")
	if err != nil {
		return nil, fmt.Errorf("argo cd's sync windows: %w", err)
	}
	if o.runs("promotions") {
		if o.Before != "" {
			err = CheckFleetChangePromotions(ctx, r, o.Before, o.Manifests, objs, world, windows, o.Progress)
		} else {
			err = CheckPromotions(ctx, r, objs, world, argo, windows, o.Progress)
		}
		if err != nil {
			return nil, err
		}
	}
	if o.runs("releases") {
		if err := CheckReleases(ctx, r, objs, windows, o.Progress); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// tempDirUnder points os.TempDir at a directory under work until the returned function runs,
// then removes it. Kargo's engine leaves behind what it makes there: helm-template's
// EphemeralDependencyManager is never torn down (pkg/promotion/runner/builtin/
// helm_template_runner.go:168, pkg/helm/dependency_manager.go:59), and each promotion's
// work directory is os.TempDir()/promotion-<uid> (pkg/controller/promotions/promotions.go:827),
// which the reconciler removes only on the paths it reaches (cleanupWorkDir), not for every
// promotion the suite runs. Three runs of the suite had left about 8,000 of each in /tmp.
func tempDirUnder(work string) (func(), error) {
	dir := filepath.Join(work, "tmp")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	previous, had := os.LookupEnv("TMPDIR")
	if err := os.Setenv("TMPDIR", dir); err != nil {
		return nil, err
	}
	return func() {
		if had {
			_ = os.Setenv("TMPDIR", previous)
		} else {
			_ = os.Unsetenv("TMPDIR")
		}
		_ = os.RemoveAll(dir)
	}, nil
}

// Package argocd runs a directory of synthesized manifests through Argo CD v3.5.1's own code, per
// Argo CD instance (the hub, and each cluster with an Argo CD of its own): cluster and repository
// Secrets, the ApplicationSet controller's generation and reconcile (over a fake API server), every
// Application, written or generated, against its AppProject, and sync windows; with Before, the
// ApplicationSet controller through the fleet change from the objects before to the objects after.
package argocd

import (
	"context"
	"fmt"
	"time"
)

// Options of one run.
type Options struct {
	// Manifests is the directory of synthesized YAML.
	Manifests string
	// Before is the same platform synthesized before a change ("": no change).
	Before string
	// Namespace is the hub's Argo CD namespace, where objects without a namespace are applied ("":
	// where the hub's AppProjects are, else argocd).
	Namespace string
	// Now is the instant at which sync windows are evaluated (nil: not evaluated).
	Now *time.Time
}

// Run checks every Argo CD instance of the manifests; an error is the run's own failure (a
// directory it cannot read, an object that does not decode), never a finding.
func Run(ctx context.Context, o Options) (*Report, error) {
	r := NewReport()
	fleets, err := LoadFleets(o.Manifests, o.Namespace)
	if err != nil {
		return nil, err
	}
	var before []*Fleet
	if o.Before != "" {
		if before, err = LoadFleets(o.Before, o.Namespace); err != nil {
			return nil, fmt.Errorf("--before: %w", err)
		}
	}
	for _, fleet := range fleets {
		r.count("argoCDInstances", 1)
		apps, err := checkFleet(ctx, r, fleet)
		if err != nil {
			return nil, err
		}
		checkSyncWindows(r, fleet, apps, o.Now)
		if o.Before != "" {
			if err := checkFleetChange(ctx, r, fleetOf(before, fleet.Instance), fleet); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}

// LoadFleets reads a manifests directory as the Argo CD instances it is applied to, hub first.
func LoadFleets(dir, hubNamespace string) ([]*Fleet, error) {
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

// fleetOf is the instance of fleets (an empty one when the manifests do not have it).
func fleetOf(fleets []*Fleet, instance string) *Fleet {
	for _, f := range fleets {
		if f.Instance == instance {
			return f
		}
	}
	return &Fleet{Instance: instance}
}

// checkFleet runs the checks of one Argo CD instance: its Secrets, the Applications its
// ApplicationSets generate, and every Application against its project.
func checkFleet(ctx context.Context, r *Report, fleet *Fleet) ([]*AppInstance, error) {
	argo := newArgo(ctx, fleet)
	checkClusterSecrets(r, fleet)
	checkRepositorySecrets(ctx, r, fleet, argo)
	apps, err := applications(ctx, r, fleet, argo)
	if err != nil {
		return nil, err
	}
	return apps, checkPermissions(ctx, r, fleet, argo, apps)
}

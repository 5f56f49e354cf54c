package kargo

import (
	"context"
	"fmt"
	"io"
	"sort"

	argocdapi "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/argocd"
)

// A fleet change with the release on the clusters: every Stage of the platform before the change
// is promoted once, so its release branches hold what the clusters run; the change is applied to
// Argo CD (the ApplicationSet controller to its fixed point, package argocd); then the Stages of
// the platform after it are promoted in every scenario, against the Applications as the change
// left them. Between the two, an Application whose new branch does not hold its path yet (a
// cluster moved to another wave has no folder on that wave's branch until the wave's next
// promotion) is noted with what Argo CD does meanwhile; after them, any Application still without
// its path is a promotion that failed (argocd-update finds the sync failing), or one no Stage syncs.

// FleetChange notes what Argo CD does with each Application between the change and its Stage's
// next promotion.
type FleetChange struct {
	Application string `json:"application"`
	Source      string `json:"source"`
	Meanwhile   string `json:"meanwhile"`
}

var firstPromotion = []Scenario{Scenarios[0]}

// CheckFleetChangePromotions promotes the platform before the change, applies it, and promotes
// the platform after it.
func CheckFleetChangePromotions(ctx context.Context, r *Report, before, after string, objs *Objects, world *World, windows *argocd.Windows, log io.Writer) error {
	beforeObjs, err := LoadObjects(before)
	if err != nil {
		return fmt.Errorf("--before: %w", err)
	}
	beforeArgos, err := NewArgoCDs(ctx, before, world.Git)
	if err != nil {
		return fmt.Errorf("--before: argo cd's applications: %w", err)
	}
	fmt.Fprintf(log, "kargo: promoting every stage of the platform before the change\n")
	// findings about the platform before the change are not this run's
	if err := checkPromotions(ctx, NewReport(), beforeObjs, world, beforeArgos, nil, log, firstPromotion); err != nil {
		return fmt.Errorf("--before: %w", err)
	}
	beforeFleets, err := argocd.LoadFleets(before, "")
	if err != nil {
		return err
	}
	afterFleets, err := argocd.LoadFleets(after, "")
	if err != nil {
		return err
	}
	afterArgos := map[string]*ArgoCD{}
	for _, f := range afterFleets {
		var b *argocd.Fleet
		for _, bf := range beforeFleets {
			if bf.Instance == f.Instance {
				b = bf
			}
		}
		if b == nil {
			b = &argocd.Fleet{Instance: f.Instance, Namespace: f.Namespace}
		}
		fc, err := argocd.SimulateFleetChange(ctx, b, f)
		if err != nil {
			return err
		}
		live, err := fc.After.Applications(ctx)
		if err != nil {
			return err
		}
		for _, d := range f.Applications {
			live = append(live, *d.Value.DeepCopy())
		}
		r.FleetChange = append(r.FleetChange, meanwhile(world.Git, live)...)
		if afterArgos[f.Instance], err = NewArgoCD(live, world.Git); err != nil {
			return err
		}
	}
	if afterArgos[""] == nil {
		if afterArgos[""], err = NewArgoCD(nil, world.Git); err != nil {
			return err
		}
	}
	r.count("applications waiting for their path after the fleet change", len(r.FleetChange))
	fmt.Fprintf(log, "kargo: promoting every stage of the platform after the change\n")
	return CheckPromotions(ctx, r, objs, world, afterArgos, windows, log)
}

// meanwhile notes every Application whose source path its branch does not hold yet.
func meanwhile(g *GitWorld, live []argocdapi.Application) []FleetChange {
	var out []FleetChange
	for _, app := range live {
		for _, src := range app.Spec.GetSources() {
			if src.Chart != "" || src.TargetRevision == "" {
				continue
			}
			commit, err := g.Resolve(src.RepoURL, src.TargetRevision)
			what := ""
			switch {
			case err != nil:
				what = fmt.Sprintf("argo cd cannot resolve %s yet (ComparisonError): the cluster keeps running what the application last synced until the branch exists", src.TargetRevision)
			default:
				if files, err := g.Files(src.RepoURL, commit, src.Path); err == nil && len(files) > 0 {
					continue
				}
				what = fmt.Sprintf("%s holds no %s until its stage's next promotion renders it: argo cd reports ComparisonError (app path does not exist) and syncs nothing, so the cluster keeps running what it ran", src.TargetRevision, src.Path)
			}
			out = append(out, FleetChange{Application: app.Namespace + "/" + app.Name, Source: fmt.Sprintf("%s@%s:%s", src.RepoURL, src.TargetRevision, src.Path), Meanwhile: what})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Application < out[j].Application })
	return out
}

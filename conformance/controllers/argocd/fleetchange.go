package argocd

import (
	"context"

	"fmt"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	argoutil "github.com/argoproj/argo-cd/v3/util/argo"
)

// FleetChange is the ApplicationSet controller of one Argo CD instance through a fleet change:
// the Applications as the objects before left them, then the objects after applied and every
// ApplicationSet reconciled again and again until nothing changes.
type FleetChange struct {
	// After is the controller over the objects after, holding the Applications at the fixed point.
	After *Controller
	// Generated is what each ApplicationSet after generates (GenerateApplications, validateGeneratedApplications).
	Generated []Generated
	// Failed is the error of every ApplicationSet whose Reconcile still fails at the fixed point.
	Failed map[string]error
	// Rounds is how many rounds of reconciles it took.
	Rounds int
	// Collected are the Applications Kubernetes' garbage collector deleted with their ApplicationSet.
	Collected []string
}

// SimulateFleetChange runs the controller of before to its fixed point, applies after (an
// ApplicationSet after no longer holds is deleted, and with it, by Kubernetes' garbage collector,
// every Application it controls: the controller puts no finalizer on it unless deletionOrder is
// Reverse), and runs after's controller to its fixed point.
func SimulateFleetChange(ctx context.Context, before, after *Fleet) (*FleetChange, error) {
	var live []v1alpha1.Application
	if len(before.ApplicationSets) > 0 {
		c, err := NewController(ctx, before, newArgo(ctx, before), nil, DefaultPolicy)
		if err != nil {
			return nil, err
		}
		if _, _, err := c.fixedPoint(ctx); err != nil {
			return nil, err
		}
		if live, err = c.Applications(ctx); err != nil {
			return nil, err
		}
	}
	kept := map[string]bool{}
	for _, s := range after.ApplicationSets {
		kept[s.Value.Name] = true
	}
	fc := &FleetChange{}
	var carried []v1alpha1.Application
	for _, app := range live {
		if owner := controllerOf(&app); owner != "" && !kept[owner] {
			fc.Collected = append(fc.Collected, app.Name)
			continue
		}
		app.ResourceVersion = ""
		carried = append(carried, app)
	}
	c, err := NewController(ctx, after, newArgo(ctx, after), carried, DefaultPolicy)
	if err != nil {
		return nil, err
	}
	fc.After = c
	if fc.Failed, fc.Rounds, err = c.fixedPoint(ctx); err != nil {
		return nil, err
	}
	if fc.Generated, err = c.Generate(ctx); err != nil {
		return nil, err
	}
	return fc, nil
}

// fixedPoint reconciles every ApplicationSet, round after round, until a round changes no
// Application (at most one round per ApplicationSet and three more), and returns the errors of
// the last round.
func (c *Controller) fixedPoint(ctx context.Context) (map[string]error, int, error) {
	previous := ""
	limit := len(c.appSets) + 3
	var failed map[string]error
	round := 0
	for round < limit {
		round++
		failed = c.ReconcileAll(ctx)
		if err := c.finishDeletions(ctx); err != nil {
			return nil, round, err
		}
		apps, err := c.Applications(ctx)
		if err != nil {
			return nil, round, err
		}
		state := fingerprint(apps)
		if state == previous {
			break
		}
		previous = state
	}
	return failed, round, nil
}

// finishDeletions stands in for Argo CD's application controller: an Application deleted with
// the resources finalizer (which GenerateApplications' renderer adds) is gone once the controller
// has deleted its resources from the cluster and removed the finalizer. The cascade itself is not
// run; it is counted, as the cluster loses the Application's resources until another Application
// creates them again.
func (c *Controller) finishDeletions(ctx context.Context) error {
	apps, err := c.Applications(ctx)
	if err != nil {
		return err
	}
	for i := range apps {
		app := &apps[i]
		if app.DeletionTimestamp == nil {
			continue
		}
		c.Cascaded = append(c.Cascaded, app.Name)
		app.Finalizers = nil
		if err := c.Client.Update(ctx, app); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

func fingerprint(apps []v1alpha1.Application) string {
	var b strings.Builder
	for _, a := range apps {
		fmt.Fprintf(&b, "%s/%s %s %s|", a.Namespace, a.Name, controllerOf(&a), a.ResourceVersion)
	}
	return b.String()
}

// checkFleetChange reports what the fleet change leaves wrong at the fixed point: an
// ApplicationSet whose Reconcile still fails (createOrUpdateInCluster: another ApplicationSet
// controls an Application it generates, and Reconcile returns before deleteInCluster, so it
// deletes nothing either), and every Application it generates that is missing, controlled by
// another ApplicationSet or not updated to what it generates now.
func checkFleetChange(ctx context.Context, r *Report, before, after *Fleet) error {
	if len(after.ApplicationSets) == 0 && len(before.ApplicationSets) == 0 {
		return nil
	}
	fc, err := SimulateFleetChange(ctx, before, after)
	if err != nil {
		return err
	}
	r.count("fleetChangeReconcileRounds", fc.Rounds)
	r.count("fleetChangeApplicationsCollected", len(fc.Collected))
	r.count("fleetChangeApplicationsDeletedWithTheirResources", len(fc.After.Cascaded))
	live, err := fc.After.Applications(ctx)
	if err != nil {
		return err
	}
	byName := map[string]*v1alpha1.Application{}
	for i := range live {
		byName[live[i].Name] = &live[i]
	}
	decidedBy := upstream("applicationset/controllers", "ApplicationSetReconciler.createOrUpdateInCluster")
	for _, g := range fc.Generated {
		set := g.AppSet
		if err, ok := fc.Failed[set.Value.Namespace+"/"+set.Value.Name]; ok {
			r.add(set.Object, "/spec/generators", "applicationset-ownership-conflict",
				fmt.Sprintf("after the fleet change argo cd's applicationset controller fails every reconcile of applicationset %s: %s; "+
					"Reconcile returns before deleteInCluster, so it deletes nothing either, and the clusters stay on their old branch until a person deletes the applications",
					set.Value.Name, err), decidedBy)
		}
		var wrong []string
		for _, want := range g.Applications {
			if g.Invalid[want.QualifiedName()] != nil {
				continue
			}
			r.count("fleetChangeApplicationsChecked", 1)
			got := byName[want.Name]
			switch {
			case got == nil:
				wrong = append(wrong, want.Name+" (missing)")
			case controllerOf(got) != set.Value.Name:
				wrong = append(wrong, fmt.Sprintf("%s (controlled by applicationset %q)", want.Name, controllerOf(got)))
			case !equality.Semantic.DeepEqual(*argoutil.NormalizeApplicationSpec(&want.Spec), *argoutil.NormalizeApplicationSpec(&got.Spec)):
				wrong = append(wrong, fmt.Sprintf("%s (still on %s)", want.Name, describeSource(got)))
			}
		}
		if len(wrong) > 0 {
			sort.Strings(wrong)
			r.add(set.Object, "/spec/template", "applicationset-application-outdated",
				fmt.Sprintf("after the fleet change, applicationset %s generates applications argo cd does not run as generated: %s",
					set.Value.Name, strings.Join(wrong, ", ")), upstream("applicationset/controllers", "ApplicationSetReconciler.Reconcile"))
		}
	}
	return nil
}

func describeSource(app *v1alpha1.Application) string {
	src := app.Spec.GetSource()
	return fmt.Sprintf("%s@%s:%s", src.RepoURL, src.TargetRevision, src.Path)
}

package argocd

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	log "github.com/sirupsen/logrus"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	_ "unsafe" // go:linkname

	"github.com/argoproj/argo-cd/v3/applicationset/controllers"
	"github.com/argoproj/argo-cd/v3/applicationset/controllers/template"
	"github.com/argoproj/argo-cd/v3/applicationset/generators"
	"github.com/argoproj/argo-cd/v3/applicationset/metrics"
	"github.com/argoproj/argo-cd/v3/applicationset/utils"
	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/util/settings"
	testutil "github.com/argoproj/argo-cd/v3/util/test"
)

// appControllerIndexer is the field index the ApplicationSet controller registers on
// Applications (".metadata.controller": the name of the ApplicationSet that controls each), which
// getCurrentApplications lists by. Linked, not copied: SetupWithManager registers it on the
// manager this suite does not have.
//
//go:linkname appControllerIndexer github.com/argoproj/argo-cd/v3/applicationset/controllers.appControllerIndexer
func appControllerIndexer(rawObj client.Object) []string

// validateGeneratedApplications is what Reconcile runs on the generated Applications before it
// writes them: a name generated twice, a project that does not exist and a destination
// GetDestinationCluster cannot resolve are errors, keyed by the Application's qualified name, and
// Reconcile keeps only the Applications without one (so both Applications of a duplicated name are
// dropped). Linked to report every error: the ApplicationSet's status condition keeps the last one.
//
//go:linkname validateGeneratedApplications github.com/argoproj/argo-cd/v3/applicationset/controllers.(*ApplicationSetReconciler).validateGeneratedApplications
func validateGeneratedApplications(r *controllers.ApplicationSetReconciler, ctx context.Context, desired []v1alpha1.Application, appSet v1alpha1.ApplicationSet) (map[string]error, error)

// Controller is Argo CD v3.5.1's ApplicationSet controller of one Argo CD instance: the
// ApplicationSetReconciler with the generators GetGenerators gives it, over a fake API server
// (controller-runtime's fake client, with the index and status subresource the manager would
// register, wrapped as Argo CD's own tests wrap it) holding the instance's AppProjects, cluster
// Secrets, ApplicationSets and the Applications that exist already.
type Controller struct {
	Client     client.Client
	Reconciler *controllers.ApplicationSetReconciler
	Namespace  string
	// Cascaded are the Applications deleted with the resources finalizer (finishDeletions).
	Cascaded []string
	appSets  []*Decoded[v1alpha1.ApplicationSet]
}

// Policy is the controller's --policy and --enable-policy-override.
type Policy struct {
	Sync     v1alpha1.ApplicationsSyncPolicy
	Override bool
}

// DefaultPolicy is the controller's default: sync (create, update and delete), no override.
var DefaultPolicy = Policy{Sync: v1alpha1.ApplicationsSyncPolicySync}

// NewController starts the controller of fleet with the Applications live already exist (a
// previous platform's, for a fleet change; nil otherwise).
func NewController(ctx context.Context, fleet *Fleet, argo *Argo, live []v1alpha1.Application, policy Policy) (*Controller, error) {
	scheme := runtime.NewScheme()
	if err := v1alpha1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	if err := corev1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	var objects []client.Object
	for _, p := range fleet.Projects {
		objects = append(objects, p.Value.DeepCopy())
	}
	for _, s := range fleet.ClusterSecrets {
		objects = append(objects, s.Value.DeepCopy())
	}
	for _, s := range fleet.ApplicationSets {
		set := s.Value.DeepCopy()
		// the UID an owner reference names: kept across a fleet change, as the API server keeps
		// it for an ApplicationSet that is updated, not recreated
		set.UID = types.UID(set.Namespace + "/" + set.Name)
		objects = append(objects, set)
	}
	for i := range live {
		objects = append(objects, live[i].DeepCopy())
	}
	c := testutil.MakeSaneFakeClient(fake.NewClientBuilder().WithScheme(scheme).WithObjects(objects...).
		WithIndex(&v1alpha1.Application{}, ".metadata.controller", appControllerIndexer).
		WithStatusSubresource(&v1alpha1.ApplicationSet{}).Build())
	informer, err := settings.NewClusterInformer(argo.Kube, fleet.Namespace)
	if err != nil {
		return nil, err
	}
	go informer.Run(ctx.Done())
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		return nil, fmt.Errorf("argo cd's cluster informer of instance %q did not sync", fleet.Instance)
	}
	r := &controllers.ApplicationSetReconciler{
		Client:               c,
		Scheme:               scheme,
		Recorder:             &record.FakeRecorder{},
		Generators:           generators.GetGenerators(ctx, c, argo.Kube, fleet.Namespace, nil, nil, generators.SCMConfig{}, informer),
		ArgoDB:               argo.DB,
		KubeClientset:        argo.Kube,
		Policy:               policy.Sync,
		EnablePolicyOverride: policy.Override,
		Renderer:             &utils.Render{},
		ArgoCDNamespace:      fleet.Namespace,
		Metrics:              metrics.NewFakeAppsetMetrics(),
		ClusterInformer:      informer,
	}
	return &Controller{Client: c, Reconciler: r, Namespace: fleet.Namespace, appSets: fleet.ApplicationSets}, nil
}

// quietLog is the entry GenerateApplications logs through; the controller's logs are not findings.
func quietLog() *log.Entry {
	logger := log.New()
	logger.SetOutput(io.Discard)
	return log.NewEntry(logger)
}

// Generated is what one ApplicationSet generates, as Reconcile sees it.
type Generated struct {
	AppSet *Decoded[v1alpha1.ApplicationSet]
	// Applications are GenerateApplications' output, in its order.
	Applications []v1alpha1.Application
	// Invalid are validateGeneratedApplications' errors by qualified name: Reconcile writes none of these.
	Invalid map[string]error
	// Err is GenerateApplications' error (the controller writes nothing of the ApplicationSet).
	Err error
}

// Generate runs GenerateApplications and validateGeneratedApplications on every ApplicationSet.
func (c *Controller) Generate(ctx context.Context) ([]Generated, error) {
	var out []Generated
	for _, s := range c.appSets {
		set := v1alpha1.ApplicationSet{}
		if err := c.Client.Get(ctx, types.NamespacedName{Namespace: s.Value.Namespace, Name: s.Value.Name}, &set); err != nil {
			return nil, err
		}
		apps, _, err := template.GenerateApplications(quietLog(), set, c.Reconciler.Generators, c.Reconciler.Renderer, c.Client)
		g := Generated{AppSet: s, Applications: apps, Err: err}
		if err == nil {
			if g.Invalid, err = validateGeneratedApplications(c.Reconciler, ctx, apps, set); err != nil {
				return nil, fmt.Errorf("applicationset %s: %w", set.Name, err)
			}
		}
		out = append(out, g)
	}
	return out, nil
}

// ReconcileAll runs Reconcile once on every ApplicationSet, in name order, and returns the error
// of each one whose Reconcile failed.
func (c *Controller) ReconcileAll(ctx context.Context) map[string]error {
	errs := map[string]error{}
	for _, s := range c.appSets {
		key := types.NamespacedName{Namespace: s.Value.Namespace, Name: s.Value.Name}
		if _, err := c.Reconciler.Reconcile(ctx, ctrl.Request{NamespacedName: key}); err != nil {
			errs[key.String()] = err
		}
	}
	return errs
}

// Applications are the Applications in the fake API server, by name.
func (c *Controller) Applications(ctx context.Context) ([]v1alpha1.Application, error) {
	var list v1alpha1.ApplicationList
	if err := c.Client.List(ctx, &list); err != nil {
		return nil, err
	}
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	return list.Items, nil
}

// controllerOf names the ApplicationSet that controls an Application ("" when none does).
func controllerOf(app *v1alpha1.Application) string {
	if owner := metav1.GetControllerOf(app); owner != nil && owner.Kind == "ApplicationSet" {
		return owner.Name
	}
	return ""
}

// applications are the Applications the instance runs: the written ones, and those the
// ApplicationSet controller writes after one Reconcile of every ApplicationSet. Generation errors,
// invalid generated Applications and failed reconciles are findings.
func applications(ctx context.Context, r *Report, fleet *Fleet, argo *Argo) ([]*AppInstance, error) {
	var apps []*AppInstance
	for _, d := range fleet.Applications {
		r.count("applications", 1)
		apps = append(apps, &AppInstance{App: d.Value, From: d.Object, Spec: "/spec"})
	}
	if len(fleet.ApplicationSets) == 0 {
		return apps, nil
	}
	c, err := NewController(ctx, fleet, argo, nil, DefaultPolicy)
	if err != nil {
		return nil, err
	}
	generated, err := c.Generate(ctx)
	if err != nil {
		return nil, err
	}
	reportGenerated(r, fleet, generated)
	failed := c.ReconcileAll(ctx)
	live, err := c.Applications(ctx)
	if err != nil {
		return nil, err
	}
	reportReconcileErrors(r, fleet, failed)
	bySet := map[string]*Decoded[v1alpha1.ApplicationSet]{}
	for _, s := range fleet.ApplicationSets {
		bySet[s.Value.Name] = s
	}
	for i := range live {
		set := bySet[controllerOf(&live[i])]
		if set == nil {
			continue
		}
		r.count("applicationsGenerated", 1)
		apps = append(apps, &AppInstance{App: live[i], From: set.Object, Spec: "/spec/template/spec"})
	}
	return apps, nil
}

// reportGenerated turns what GenerateApplications and validateGeneratedApplications refuse into findings.
func reportGenerated(r *Report, fleet *Fleet, generated []Generated) {
	secretsHere := 0
	for _, c := range fleet.ClusterSecrets {
		if c.Value.Namespace == fleet.Namespace {
			secretsHere++
		}
	}
	for _, g := range generated {
		r.count("applicationSets", 1)
		if g.Err != nil {
			r.add(g.AppSet.Object, "/spec/generators", "applicationset-generation-failed",
				fmt.Sprintf("argo cd generates no application of applicationset %s: %s", g.AppSet.Value.Name, g.Err),
				upstream("applicationset/controllers/template", "GenerateApplications"))
			continue
		}
		if len(g.Applications) == 0 {
			r.count("applicationSetsGeneratingNothing", 1)
			// an ApplicationSet of a wave a fleet change emptied generates nothing, harmlessly; an
			// Argo CD with no cluster Secret in its namespace generates nothing from any, and nothing
			// of them is checked (a hub judged in a namespace its Secrets are not in went unnoticed
			// this way)
			if secretsHere == 0 && len(fleet.ClusterSecrets) > 0 {
				r.add(g.AppSet.Object, "/spec/generators", "applicationset-generates-nothing",
					fmt.Sprintf("argo cd's applicationset controller generates no application from applicationset %s: no cluster secret is in %s, argo cd's namespace, the only one it reads them in",
						g.AppSet.Value.Name, fleet.Namespace),
					upstream("applicationset/controllers/template", "GenerateApplications"))
			}
			continue
		}
		names := make([]string, 0, len(g.Invalid))
		for name := range g.Invalid {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			code, path := invalidCode(g.Invalid[name].Error())
			r.add(g.AppSet.Object, path, code,
				fmt.Sprintf("argo cd's applicationset controller writes no application %s: %s", name, g.Invalid[name]),
				upstream("applicationset/controllers", "ApplicationSetReconciler.validateGeneratedApplications"))
		}
	}
}

// invalidCode sorts validateGeneratedApplications' three errors (v3.5.1 messages).
func invalidCode(message string) (code, path string) {
	switch {
	case strings.Contains(message, "duplicate name"):
		return "application-name-conflict", "/spec/template/metadata/name"
	case strings.Contains(message, "references project"):
		return "project-not-found", "/spec/template/spec/project"
	}
	return "cluster-not-found", "/spec/template/spec/destination"
}

// reportReconcileErrors reports every ApplicationSet whose Reconcile failed. The one error that
// matters here is createOrUpdateInCluster's: SetControllerReference refuses an Application another
// ApplicationSet controls, so two ApplicationSets that generate one name fight over it.
func reportReconcileErrors(r *Report, fleet *Fleet, failed map[string]error) {
	for _, s := range fleet.ApplicationSets {
		err, ok := failed[s.Value.Namespace+"/"+s.Value.Name]
		if !ok {
			continue
		}
		r.add(s.Object, "/spec/template/metadata/name", reconcileCode(err),
			fmt.Sprintf("argo cd's applicationset controller fails to reconcile applicationset %s: %s", s.Value.Name, err),
			upstream("applicationset/controllers", "ApplicationSetReconciler.createOrUpdateInCluster"))
	}
}

func reconcileCode(err error) string {
	if strings.Contains(err.Error(), "already owned by another") {
		return "application-name-conflict"
	}
	return "applicationset-reconcile-failed"
}

// AppInstance is an Application Argo CD would have, with the object a finding about it goes on.
type AppInstance struct {
	App  v1alpha1.Application
	From *Object
	// Spec is the JSON pointer, within From, of the Application's spec.
	Spec string
}

func (a *AppInstance) label() string { return "application " + a.App.Name }

// InstanceApplications are the Applications of one Argo CD instance: the written ones, then those
// its ApplicationSet controller writes after one Reconcile of every ApplicationSet.
func InstanceApplications(ctx context.Context, fleet *Fleet) ([]v1alpha1.Application, error) {
	var out []v1alpha1.Application
	for _, d := range fleet.Applications {
		out = append(out, *d.Value.DeepCopy())
	}
	if len(fleet.ApplicationSets) == 0 {
		return out, nil
	}
	c, err := NewController(ctx, fleet, newArgo(ctx, fleet), nil, DefaultPolicy)
	if err != nil {
		return nil, err
	}
	c.ReconcileAll(ctx)
	live, err := c.Applications(ctx)
	if err != nil {
		return nil, err
	}
	return append(out, live...), nil
}

package argocd

import (
	"context"
	"errors"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	applisters "github.com/argoproj/argo-cd/v3/pkg/client/listers/application/v1alpha1"
	"github.com/argoproj/argo-cd/v3/util/argo"
)

// conditionCode sorts the InvalidSpecError conditions of util/argo.ValidatePermissions (v3.5.1
// messages) into finding codes; each names the function inside ValidatePermissions that decided.
func conditionCode(message string) (code, decidedBy string) {
	switch {
	case strings.Contains(message, "is not permitted in project"):
		return "source-repo-not-permitted", upstream("pkg/apis/application/v1alpha1", "AppProject.IsSourcePermitted")
	case strings.Contains(message, "do not match any of the allowed destinations"):
		return "destination-not-permitted", upstream("pkg/apis/application/v1alpha1", "AppProject.IsDestinationPermitted")
	case strings.Contains(message, "there are no clusters with this name"),
		strings.Contains(message, "error getting cluster"),
		strings.Contains(message, "clusters with the same name"),
		strings.Contains(message, "can't have both name and server"),
		strings.Contains(message, "Destination server missing"):
		return "cluster-not-found", upstream("util/argo", "GetDestinationCluster")
	}
	return "application-spec-invalid", upstream("util/argo", "ValidatePermissions")
}

// checkPermissions checks every Application, written or generated, against its AppProject the
// way the application controller does before it syncs (util/argo.ValidatePermissions: source
// repo, destination cluster, destination), plus the Namespace that CreateNamespace=true makes,
// which the sync validates like any resource (controller/sync.go validateSyncPermissions).
func checkPermissions(ctx context.Context, r *Report, fleet *Fleet, a *Argo, apps []*AppInstance) error {
	projects, err := projectLister(fleet)
	if err != nil {
		return err
	}
	for _, app := range apps {
		r.count("applicationsChecked", 1)
		proj, ok := appProject(ctx, r, fleet, a, projects, app)
		if !ok {
			continue
		}
		conditions, err := argo.ValidatePermissions(ctx, &app.App.Spec, proj, a.DB)
		if err != nil {
			return fmt.Errorf("%s: %w", app.label(), err)
		}
		for _, c := range conditions {
			code, decidedBy := conditionCode(c.Message)
			r.add(app.From, app.Spec+pathOf(code), code,
				fmt.Sprintf("argo cd refuses to sync %s: %s", app.label(), strings.ToLower(c.Message)), decidedBy)
		}
		checkCreateNamespace(r, app, proj)
	}
	return nil
}

// projectLister serves the instance's AppProjects the way the controller's informer does.
func projectLister(fleet *Fleet) (applisters.AppProjectLister, error) {
	indexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, p := range fleet.Projects {
		if err := indexer.Add(p.Value.DeepCopy()); err != nil {
			return nil, err
		}
	}
	return applisters.NewAppProjectLister(indexer), nil
}

// appProject is the project the controller resolves for an Application
// (controller/appcontroller.go getAppProj -> util/argo.GetAppProject, in the controller's
// namespace: project-scoped clusters and repositories added, global projects merged, the
// Application's namespace checked against sourceNamespaces).
func appProject(ctx context.Context, r *Report, fleet *Fleet, a *Argo, projects applisters.AppProjectLister, app *AppInstance) (*v1alpha1.AppProject, bool) {
	decidedBy := upstream("util/argo", "GetAppProject")
	proj, err := argo.GetAppProject(ctx, &app.App, projects, fleet.Namespace, a.Settings, a.DB)
	var notAllowed *argo.ErrApplicationNotAllowedToUseProject
	switch {
	case err == nil:
		return proj, true
	case apierrors.IsNotFound(err):
		r.add(app.From, app.Spec+"/project", "project-not-found",
			fmt.Sprintf("%s names project %q, which is not in namespace %s: argo cd refuses to reconcile it",
				app.label(), app.App.Spec.GetProject(), fleet.Namespace), decidedBy)
	case errors.As(err, &notAllowed):
		r.add(app.From, "/metadata/namespace", "application-namespace-not-permitted",
			fmt.Sprintf("argo cd refuses to reconcile %s: %s", app.label(), strings.ToLower(err.Error())), decidedBy)
	default:
		r.add(app.From, app.Spec+"/project", "project-invalid",
			fmt.Sprintf("argo cd cannot resolve project %q of %s: %s", app.App.Spec.GetProject(), app.label(), err), decidedBy)
	}
	return nil, false
}

func pathOf(code string) string {
	switch code {
	case "source-repo-not-permitted":
		return "/source/repoURL"
	case "destination-not-permitted":
		return "/destination/namespace"
	case "cluster-not-found":
		return "/destination"
	}
	return ""
}

// checkCreateNamespace: with CreateNamespace=true the sync creates the destination Namespace, a
// cluster-scoped resource the project must whitelist by group, kind and name.
func checkCreateNamespace(r *Report, app *AppInstance, proj *v1alpha1.AppProject) {
	policy := app.App.Spec.SyncPolicy
	ns := app.App.Spec.Destination.Namespace
	if policy == nil || !policy.SyncOptions.HasOption("CreateNamespace=true") || ns == "" {
		return
	}
	r.count("createdNamespacesChecked", 1)
	if !proj.IsGroupKindNamePermitted(schema.GroupKind{Group: "", Kind: "Namespace"}, ns, false) {
		r.add(app.From, app.Spec+"/syncPolicy/syncOptions", "namespace-not-permitted",
			fmt.Sprintf("the sync of %s fails: CreateNamespace=true creates namespace %s, which project %s does not allow (clusterResourceWhitelist)",
				app.label(), ns, proj.Name),
			upstream("pkg/apis/application/v1alpha1", "AppProject.IsGroupKindNamePermitted"))
	}
}

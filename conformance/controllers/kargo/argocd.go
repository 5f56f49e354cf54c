package kargo

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	argocdapi "github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"

	kargoapi "github.com/akuity/kargo/api/v1alpha1"
	kargoargo "github.com/akuity/kargo/pkg/controller/argocd/api/v1alpha1"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/argocd"
)

// ArgoCD is the Argo CD that Kargo's argocd-update step talks to (the hub's API server, where
// Kargo's ARGOCD_KUBECONFIG points): a fake API server holding the Applications Argo CD v3.5.1's
// own ApplicationSet controller generates from the same output (package argocd: Reconcile over
// the hub's AppProjects, cluster Secrets and ApplicationSets), and the written ones. Kargo reads
// them as its own copy of the Application type (pkg/controller/argocd/api/v1alpha1), which keeps
// only the fields Kargo uses; the full Applications stay here, for where each one reads its
// source from.
//
// Its application controller is the one part that is not Argo CD's code: it runs the sync
// operation argocd-update starts, the way the repo server resolves a source: the revision must be a
// commit of the repository and the source's path must exist at it (repo server: "app path does
// not exist"); then the operation Succeeds with that revision, else Fails with the reason.
type ArgoCD struct {
	Client client.Client
	git    *GitWorld
	mu     sync.Mutex
	full   map[string]*argocdapi.Application // namespace/name
	// Syncs is every operation run, in order.
	Syncs []Sync
}

// Sync is one sync operation of one Application.
type Sync struct {
	Application string
	Promotion   string
	Sources     []SyncedSource
	Error       string
}

// SyncedSource is one source as synced: the repository, the revision asked for, the commit it
// resolved to and the path read.
type SyncedSource struct {
	RepoURL, Revision, Commit, Path string
}

// NewArgoCDs are the Argo CD instances of a manifests directory: the hub's (""), and each
// cluster's with an Argo CD of its own (its files <app>--<cluster>.k8s.yaml), by cluster.
func NewArgoCDs(ctx context.Context, manifests string, g *GitWorld) (map[string]*ArgoCD, error) {
	fleets, err := argocd.LoadFleets(manifests, "")
	if err != nil {
		return nil, err
	}
	out := map[string]*ArgoCD{}
	for _, f := range fleets {
		apps, err := argocd.InstanceApplications(ctx, f)
		if err != nil {
			return nil, err
		}
		if out[f.Instance], err = NewArgoCD(apps, g); err != nil {
			return nil, err
		}
	}
	if out[""] == nil {
		if out[""], err = NewArgoCD(nil, g); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// NewArgoCD holds Applications.
func NewArgoCD(apps []argocdapi.Application, g *GitWorld) (*ArgoCD, error) {
	scheme := runtime.NewScheme()
	if err := kargoargo.AddToScheme(scheme); err != nil {
		return nil, err
	}
	a := &ArgoCD{git: g, full: map[string]*argocdapi.Application{}}
	var objects []client.Object
	for i := range apps {
		app := apps[i]
		a.full[app.Namespace+"/"+app.Name] = &app
		k, err := toKargo(&app)
		if err != nil {
			return nil, err
		}
		objects = append(objects, k)
	}
	a.Client = fake.NewClientBuilder().WithScheme(scheme).WithObjects(objects...).Build()
	return a, nil
}

// toKargo is an Application as Kargo's type reads it from the API server (JSON, unknown fields dropped).
func toKargo(app *argocdapi.Application) (*kargoargo.Application, error) {
	data, err := json.Marshal(app)
	if err != nil {
		return nil, err
	}
	out := &kargoargo.Application{}
	if err := json.Unmarshal(data, out); err != nil {
		return nil, err
	}
	out.ResourceVersion = ""
	out.Status = kargoargo.ApplicationStatus{}
	out.Operation = nil
	return out, nil
}

// ArgoCDFor is the Argo CD a Stage's argocd-update talks to: its Kargo shard's (Stage
// spec.shard; each shard's controller has the ARGOCD_KUBECONFIG of one Argo CD, which the
// platform configures outside the output), taken as the instance that holds the Applications
// authorized for the Stage; without such Applications, the hub's.
func ArgoCDFor(argos map[string]*ArgoCD, project string, stage *kargoapi.Stage) *ArgoCD {
	names := make([]string, 0, len(argos))
	for name := range argos {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if len(argos[name].Authorized(project, stage.Name)) > 0 {
			return argos[name]
		}
	}
	return argos[""]
}

// Full is the Argo CD Application namespace/name as generated.
func (a *ArgoCD) Full(key string) *argocdapi.Application { return a.full[key] }

// Authorized are the full Applications whose kargo.akuity.io/authorized-stage annotation names
// project:stage, sorted by name.
func (a *ArgoCD) Authorized(project, stage string) []*argocdapi.Application {
	var out []*argocdapi.Application
	for _, app := range a.full {
		for _, s := range strings.Split(app.Annotations["kargo.akuity.io/authorized-stage"], ",") {
			if strings.TrimSpace(s) == project+":"+stage {
				out = append(out, app)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// SyncsOf are the syncs a promotion started.
func (a *ArgoCD) SyncsOf(promotion string) []Sync {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []Sync
	for _, s := range a.Syncs {
		if s.Promotion == promotion {
			out = append(out, s)
		}
	}
	return out
}

// RunOperations runs the pending sync operations a promotion started (argocd-update names it in
// the operation's info; promotions of other projects run at the same time) and returns how many ran.
func (a *ArgoCD) RunOperations(ctx context.Context, promotion string) (int, error) {
	var list kargoargo.ApplicationList
	if err := a.Client.List(ctx, &list); err != nil {
		return 0, err
	}
	n := 0
	for i := range list.Items {
		app := &list.Items[i]
		if app.Operation == nil || app.Operation.Sync == nil {
			continue
		}
		started := ""
		for _, info := range app.Operation.Info {
			if info != nil && info.Name == "kargo.akuity.io/promotion" {
				started = info.Value
			}
		}
		if started != promotion {
			continue
		}
		n++
		sync := a.sync(app, promotion)
		now := metav1.NewTime(time.Now())
		state := &kargoargo.OperationState{Operation: *app.Operation, FinishedAt: &now, SyncResult: &kargoargo.SyncOperationResult{}}
		// the revisions the operation resolved to, failed or not (Argo CD records them either way)
		var commits []string
		for _, s := range sync.Sources {
			commits = append(commits, s.Commit)
		}
		if len(commits) == 1 && app.Spec.Source != nil {
			state.SyncResult.Revision = commits[0]
			state.SyncResult.Source = *app.Spec.Source
		} else {
			state.SyncResult.Revisions = commits
			state.SyncResult.Sources = app.Spec.Sources
		}
		if sync.Error != "" {
			state.Phase, state.Message = kargoargo.OperationError, sync.Error
		} else {
			state.Phase, state.Message = kargoargo.OperationSucceeded, "successfully synced (all tasks run)"
			app.Status.Sync = kargoargo.SyncStatus{Status: kargoargo.SyncStatusCodeSynced, Revision: state.SyncResult.Revision, Revisions: state.SyncResult.Revisions}
			app.Status.Health = kargoargo.HealthStatus{Status: kargoargo.HealthStatusHealthy}
		}
		app.Status.OperationState = state
		app.Operation = nil
		if err := a.Client.Update(ctx, app); err != nil {
			return n, err
		}
		a.mu.Lock()
		a.Syncs = append(a.Syncs, sync)
		a.mu.Unlock()
	}
	return n, nil
}

// sync resolves every source of an Application at the revisions its operation asks for.
func (a *ArgoCD) sync(app *kargoargo.Application, promotion string) Sync {
	key := app.Namespace + "/" + app.Name
	s := Sync{Application: key, Promotion: promotion}
	full := a.full[key]
	sources := app.Spec.Sources
	if app.Spec.Source != nil {
		sources = kargoargo.ApplicationSources{*app.Spec.Source}
	}
	var fullSources argocdapi.ApplicationSources
	if full != nil {
		fullSources = full.Spec.GetSources()
	}
	for i, src := range sources {
		revision := src.TargetRevision
		if i < len(app.Operation.Sync.Revisions) && app.Operation.Sync.Revisions[i] != "" {
			revision = app.Operation.Sync.Revisions[i]
		}
		if revision == "" {
			revision = "HEAD"
		}
		synced := SyncedSource{RepoURL: src.RepoURL, Revision: revision}
		if i < len(fullSources) {
			synced.Path = fullSources[i].Path
		}
		commit, err := a.git.Resolve(src.RepoURL, revision)
		if err != nil {
			s.Error = fmt.Sprintf("ComparisonError: unable to resolve %q to a commit of %s", revision, src.RepoURL)
			s.Sources = append(s.Sources, synced)
			return s
		}
		synced.Commit = commit
		if src.Chart == "" {
			files, err := a.git.Files(src.RepoURL, commit, synced.Path)
			if err != nil || len(files) == 0 {
				s.Error = fmt.Sprintf("ComparisonError: %s: app path does not exist (at %s of %s)", synced.Path, commit, src.RepoURL)
			}
		}
		s.Sources = append(s.Sources, synced)
		if s.Error != "" {
			return s
		}
	}
	return s
}

package kargo

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	kargoapi "github.com/akuity/kargo/api/v1alpha1"
	"github.com/akuity/kargo/pkg/api"
	"github.com/akuity/kargo/pkg/controller/promotions"
	"github.com/akuity/kargo/pkg/credentials"
	"github.com/akuity/kargo/pkg/promotion"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/argocd"
)

// Scenario is one promotion of a Stage, on the release repository the previous one left.
type Scenario struct {
	Name       string
	Generation Generation
}

// Scenarios are the promotions every Stage goes through, in order.
var Scenarios = []Scenario{
	{"first promotion", 1},
	{"the same Freight again", 1},
	{"newer Freight (versions that read as numbers)", 2},
	{"rollback to the first Freight", 1},
}

// PromotionRun is what one promotion did.
type PromotionRun struct {
	Stage    string   `json:"stage"`
	Scenario string   `json:"scenario"`
	Freight  string   `json:"freight"`
	Phase    string   `json:"phase"`
	Message  string   `json:"message,omitempty"`
	Steps    []string `json:"steps"`
	Synced   []string `json:"synced,omitempty"`
}

// World is where the promotions run: the repositories, the chart servers and the pull requests.
type World struct {
	Dir    string
	Git    *GitWorld
	Charts *ChartWorld
	PRs    *PullRequests
}

// NewWorld prepares a world in dir; it points this process's PATH (git), proxy and CA at it, so
// call it before anything makes an HTTP request.
func NewWorld(dir string) (*World, error) {
	g, err := NewGitWorld(filepath.Join(dir, "git"))
	if err != nil {
		return nil, err
	}
	charts, err := NewChartWorld(filepath.Join(dir, "charts"))
	if err != nil {
		return nil, err
	}
	return &World{Dir: dir, Git: g, Charts: charts, PRs: RegisterPullRequests(g)}, nil
}

// Close stops the servers.
func (w *World) Close() { w.Charts.Close() }

// project is one Kargo project's promotions.
type project struct {
	name    string
	objs    *Objects
	world   *World
	argos   map[string]*ArgoCD // by instance
	kargo   client.Client
	cps     map[*ArgoCD]*ControlPlane
	freight map[string][2]*kargoapi.Freight // by Warehouse name
	r       *Report
	log     io.Writer
	windows *argocd.Windows
	// stagesWithSteps are the Stages promoted, for the promotions across a freeze
	stagesWithSteps []*Decoded[kargoapi.Stage]
	scenarios       []Scenario
}

// CheckPromotions promotes every Stage with promotion steps of every project through Kargo's
// engine, in each Scenario, and reports what went wrong.
//
// Projects are promoted side by side (each on a Kargo API server of its own; the repositories,
// chart servers and Argo CDs they share are safe for that), each into a report of its own,
// merged in project order; the promotions across a freeze set the clock of expressions, so they
// run one after the other, after all the others.
func CheckPromotions(ctx context.Context, r *Report, objs *Objects, world *World, argos map[string]*ArgoCD, windows *argocd.Windows, log io.Writer) error {
	return checkPromotions(ctx, r, objs, world, argos, windows, log, Scenarios)
}

func checkPromotions(ctx context.Context, r *Report, objs *Objects, world *World, argos map[string]*ArgoCD, windows *argocd.Windows, log io.Writer, scenarios []Scenario) error {
	namespaces := objs.Namespaces()
	projects := make([]*project, len(namespaces))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(2, runtime.NumCPU()))
	for i, ns := range namespaces {
		projects[i] = &project{name: ns, objs: objs, world: world, argos: argos, r: NewReport(), log: log, windows: windows, scenarios: scenarios}
		p := projects[i]
		g.Go(func() error {
			if err := p.run(gctx); err != nil {
				return fmt.Errorf("project %s: %w", p.name, err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, p := range projects {
		for _, s := range p.stagesWithSteps {
			if err := p.mergeDuringFreeze(ctx, s); err != nil {
				return fmt.Errorf("project %s: %w", p.name, err)
			}
		}
		r.Merge(p.r)
	}
	return nil
}

// baseObjects are the project's objects as the API server holds them.
func (p *project) baseObjects() []client.Object {
	o := p.objs
	out := slices.Concat(copies(o.Projects), copies(o.ProjectConfigs), copies(o.Warehouses), copies(o.Stages),
		copies(o.PromotionTasks), copies(o.ClusterPromotionTasks), copies(o.Secrets))
	if o.ClusterConfig != nil {
		out = append(out, o.ClusterConfig.Value.DeepCopy())
	}
	return out
}

func (p *project) run(ctx context.Context) error {
	stages := p.promotable()
	if len(stages) == 0 {
		return nil
	}
	warehouses := p.warehouses()
	// provisional Freight (commits not made yet) for the recording pass
	provisional := map[string]*kargoapi.Freight{}
	src := p.provisionalSource(warehouses)
	for _, w := range warehouses {
		f, err := BuildFreight(&w.Value, 1, src)
		if err != nil {
			return err
		}
		approve(f, stages)
		provisional[w.Value.Name] = f
	}
	content := newSourceContent()
	for _, s := range stages {
		steps, err := p.record(ctx, s, provisional)
		if err != nil {
			return err
		}
		content.Add(steps, subscriptionsOf(s, warehouses))
	}
	if err := p.publish(ctx, content, warehouses, stages); err != nil {
		return err
	}
	p.stagesWithSteps = stages
	// every Stage gets its first promotion; the scenarios after it run on the first Stage of each
	// shape of promotion (stepShape): the others run the same steps with other names and values
	shapes := map[string]bool{}
	for _, s := range stages {
		shape := stepShape(&s.Value)
		scenarios := p.scenarios
		if shapes[shape] && len(scenarios) > 1 {
			scenarios = scenarios[:1]
			p.r.count("stages promoted once (the scenarios after the first ran on a stage of the same shape)", 1)
		}
		shapes[shape] = true
		for _, sc := range scenarios {
			if err := p.promote(ctx, s, sc); err != nil {
				return err
			}
		}
	}
	return nil
}

// promotable are the project's Stages that have promotion steps (control-flow Stages have none).
func (p *project) promotable() []*Decoded[kargoapi.Stage] {
	var out []*Decoded[kargoapi.Stage]
	for _, s := range p.objs.StagesOf(p.name) {
		if s.Value.Spec.PromotionTemplate != nil && len(s.Value.Spec.PromotionTemplate.Spec.Steps) > 0 {
			out = append(out, s)
		}
	}
	return out
}

func (p *project) warehouses() []*Decoded[kargoapi.Warehouse] {
	var out []*Decoded[kargoapi.Warehouse]
	for _, w := range p.objs.Warehouses {
		if w.Value.Namespace == p.name {
			out = append(out, w)
		}
	}
	return out
}

func subscriptionsOf(s *Decoded[kargoapi.Stage], warehouses []*Decoded[kargoapi.Warehouse]) []kargoapi.RepoSubscription {
	var out []kargoapi.RepoSubscription
	for _, req := range s.Value.Spec.RequestedFreight {
		for _, w := range warehouses {
			if w.Value.Name == req.Origin.Name {
				out = append(out, w.Value.Spec.InternalSubscriptions...)
			}
		}
	}
	return out
}

// approve approves Freight for every Stage, so that Stage.IsFreightAvailable (which promote
// asks) admits it anywhere: which Freight reaches which Stage over time is decided elsewhere
// (timeline.go).
func approve(f *kargoapi.Freight, stages []*Decoded[kargoapi.Stage]) {
	f.Status.ApprovedFor = map[string]kargoapi.ApprovedStage{}
	for _, s := range stages {
		f.Status.ApprovedFor[s.Value.Name] = kargoapi.ApprovedStage{}
	}
}

func (p *project) provisionalSource(warehouses []*Decoded[kargoapi.Warehouse]) FreightSource {
	src := FreightSource{Commits: map[string]kargoapi.GitCommit{}, Charts: map[string][2]string{}}
	for _, w := range warehouses {
		for _, sub := range w.Value.Spec.InternalSubscriptions {
			if sub.Git != nil {
				src.Commits[sub.Git.RepoURL] = kargoapi.GitCommit{RepoURL: sub.Git.RepoURL, ID: strings.Repeat("0", 40), Branch: sub.Git.Branch}
			}
			if sub.Chart != nil {
				first, second, err := versionsFor(sub.Chart.SemverConstraint, false)
				if err == nil {
					src.Charts[sub.Chart.RepoURL] = [2]string{first, second}
				}
			}
		}
	}
	return src
}

// controlPlane is a control plane over a fresh Kargo API server holding the project's objects
// and Freight, with Kargo's local engine.
func (p *project) controlPlane(freight []*kargoapi.Freight) (*ControlPlane, error) {
	objects := p.baseObjects()
	for _, f := range freight {
		objects = append(objects, f.DeepCopy())
	}
	c, err := NewKargoClient(objects...)
	if err != nil {
		return nil, err
	}
	return NewControlPlane(c, p.argos[""])
}

// record runs a Stage's steps through Kargo's orchestrator with recording runners.
func (p *project) record(ctx context.Context, s *Decoded[kargoapi.Stage], freight map[string]*kargoapi.Freight) ([]recordedStep, error) {
	target := freightFor(s, freight)
	if target == nil {
		return nil, nil
	}
	var list []*kargoapi.Freight
	for _, f := range freight {
		list = append(list, f)
	}
	var steps []recordedStep
	cp, err := p.controlPlane(list)
	if err != nil {
		return nil, err
	}
	engine := orchestratorEngine{o: promotion.NewLocalOrchestrator(recordingRegistry(&steps), cp.Kargo, nil, &credentials.FakeDB{}, nil, promotion.DefaultExprDataCacheFn)}
	cp.engine = engine
	cp.reconciler = newPromotionReconciler(cp.Kargo, cp.Kargo, noEvents{}, engine, promotions.ReconcilerConfig{})
	promo, err := cp.NewPromotion(ctx, &s.Value, target.Name, false)
	if err != nil {
		return nil, nil // the real run reports why the promotion cannot be made
	}
	promo.UID = types.UID("record-" + promo.Name)
	if err := cp.Promote(ctx, promo); err != nil {
		return nil, err
	}
	_ = os.RemoveAll(filepath.Join(os.TempDir(), "promotion-"+string(promo.UID)))
	return steps, nil
}

// freightFor is the Freight of the Stage's first requested origin.
func freightFor(s *Decoded[kargoapi.Stage], freight map[string]*kargoapi.Freight) *kargoapi.Freight {
	for _, req := range s.Value.Spec.RequestedFreight {
		if f, ok := freight[req.Origin.Name]; ok {
			return f
		}
	}
	return nil
}

// publish commits the source content, publishes the charts and builds both generations of every
// Warehouse's Freight from them.
func (p *project) publish(ctx context.Context, content *SourceContent, warehouses []*Decoded[kargoapi.Warehouse], stages []*Decoded[kargoapi.Stage]) error {
	subscribed := map[string]*kargoapi.GitSubscription{}
	for _, w := range warehouses {
		for _, sub := range w.Value.Spec.InternalSubscriptions {
			if sub.Git != nil {
				subscribed[sub.Git.RepoURL] = sub.Git
			}
		}
	}
	// every repository a step clones exists, with a main branch (the release repositories too)
	for repoURL := range content.cloned {
		if _, err := p.world.Git.Ensure(repoURL); err != nil {
			return err
		}
	}
	repos := content.Repositories()
	for repoURL := range subscribed {
		if _, ok := content.roles[repoURL]; !ok {
			repos = append(repos, repoURL)
		}
	}
	sort.Strings(repos)
	src := [2]FreightSource{
		{Commits: map[string]kargoapi.GitCommit{}, Charts: map[string][2]string{}},
		{Commits: map[string]kargoapi.GitCommit{}, Charts: map[string][2]string{}},
	}
	for _, repoURL := range repos {
		branch := "main"
		if sub := subscribed[repoURL]; sub != nil {
			branch = content.Branch(repoURL, sub.Branch)
		} else {
			branch = content.Branch(repoURL, "")
		}
		files := content.Files(repoURL)
		for gen := 1; gen <= 2; gen++ {
			files["conformance-generation.txt"] = fmt.Sprintf("%d\n", gen)
			if sub := subscribed[repoURL]; sub != nil {
				for _, inc := range sub.IncludePaths {
					if dir := strings.TrimSuffix(strings.TrimPrefix(inc, "glob:"), "/"); dir != "" && !strings.ContainsAny(dir, "*?[") && !strings.HasPrefix(inc, "regex") {
						files[dir+"/conformance-generation.txt"] = fmt.Sprintf("%d\n", gen)
					}
				}
			}
			id, err := p.world.Git.Commit(repoURL, branch, files, fmt.Sprintf("conformance: generation %d of %s", gen, repoURL))
			if err != nil {
				return err
			}
			src[gen-1].Commits[repoURL] = kargoapi.GitCommit{RepoURL: repoURL, ID: id, Branch: branch}
		}
	}
	for _, w := range warehouses {
		for _, sub := range w.Value.Spec.InternalSubscriptions {
			if sub.Chart == nil {
				continue
			}
			first, second, err := versionsFor(sub.Chart.SemverConstraint, false)
			if err != nil {
				return fmt.Errorf("warehouse %s chart %s: %w", w.Value.Name, sub.Chart.RepoURL, err)
			}
			name := sub.Chart.Name
			if name == "" {
				name = filepath.Base(sub.Chart.RepoURL)
			}
			if err := p.world.Charts.Publish(ChartRef{RepoURL: sub.Chart.RepoURL, Name: name}, first, second); err != nil {
				return err
			}
			for i := range src {
				src[i].Charts[sub.Chart.RepoURL] = [2]string{first, second}
			}
		}
	}
	p.freight = map[string][2]*kargoapi.Freight{}
	var all []*kargoapi.Freight
	for _, w := range warehouses {
		var pair [2]*kargoapi.Freight
		for gen := 1; gen <= 2; gen++ {
			f, err := BuildFreight(&w.Value, Generation(gen), src[gen-1])
			if err != nil {
				return err
			}
			approve(f, stages)
			pair[gen-1] = f
			all = append(all, f)
		}
		p.freight[w.Value.Name] = pair
	}
	cp, err := p.controlPlane(all)
	if err != nil {
		return err
	}
	p.kargo = cp.Kargo
	p.cps = map[*ArgoCD]*ControlPlane{p.argos[""]: cp}
	return nil
}

// promote runs one scenario of one Stage to its end, playing the reviewer (who merges every
// pull request the promotion waits for) and Argo CD's application controller (which runs the
// sync operations argocd-update starts).
func (p *project) promote(ctx context.Context, s *Decoded[kargoapi.Stage], sc Scenario) error {
	stageName := p.name + "/" + s.Value.Name
	fmt.Fprintf(p.log, "kargo: promoting %s: %s\n", stageName, sc.Name)
	var target *kargoapi.Freight
	for _, req := range s.Value.Spec.RequestedFreight {
		if pair, ok := p.freight[req.Origin.Name]; ok {
			target = pair[sc.Generation-1]
			break
		}
	}
	if target == nil {
		return nil
	}
	argo := ArgoCDFor(p.argos, p.name, &s.Value)
	cp := p.cps[argo]
	if cp == nil {
		var err error
		if cp, err = NewControlPlane(p.kargo, argo); err != nil {
			return err
		}
		p.cps[argo] = cp
	}
	run := PromotionRun{Stage: stageName, Scenario: sc.Name, Freight: target.Name}
	defer func() { p.r.Promotions = append(p.r.Promotions, run) }()
	p.r.count("promotions run", 1)
	promo, err := cp.NewPromotion(ctx, &s.Value, target.Name, false)
	if err != nil {
		run.Phase, run.Message = "Refused", oneLine(err)
		p.r.add(s.Object, "/spec/promotionTemplate/spec/steps", "promotion-refused", upstream("pkg/webhook/kubernetes/promotion", "webhook.Default"),
			"%s of stage %s: kargo's promotion webhook refuses the promotion: %s", sc.Name, s.Value.Name, oneLine(err))
		return nil
	}
	if err := p.runToEnd(ctx, cp, argo, promo, nil); err != nil {
		return err
	}
	run.Phase, run.Message = string(promo.Status.Phase), promo.Status.Message
	for i, m := range promo.Status.StepExecutionMetadata {
		run.Steps = append(run.Steps, fmt.Sprintf("%s %s", m.Alias, m.Status))
		_ = i
	}
	syncs := argo.SyncsOf(promo.Name)
	for _, sy := range syncs {
		run.Synced = append(run.Synced, sy.Application)
	}
	if promo.Status.Phase != kargoapi.PromotionPhaseSucceeded {
		p.failed(s, sc, promo)
		return nil
	}
	p.checkReleased(argo, s, sc, promo, target, syncs)
	return nil
}

// runToEnd runs a Promotion until it ends, as the promotion controller does on every requeue,
// playing the reviewer (who merges every pull request the promotion waits for, after
// beforeMerge) and Argo CD's application controller (which runs the sync operations argocd-update
// starts). Its work directory is removed after.
func (p *project) runToEnd(ctx context.Context, cp *ControlPlane, argo *ArgoCD, promo *kargoapi.Promotion, beforeMerge func()) error {
	defer os.RemoveAll(filepath.Join(os.TempDir(), "promotion-"+string(promo.UID)))
	for attempt := 0; attempt < 20; attempt++ {
		if err := cp.Promote(ctx, promo); err != nil {
			return err
		}
		if promo.Status.Phase != kargoapi.PromotionPhaseRunning {
			return nil
		}
		waiting := ""
		if i := int(promo.Status.CurrentStep); i < len(promo.Spec.Steps) {
			waiting = promo.Spec.Steps[i].Uses
		}
		switch waiting {
		case "git-wait-for-pr":
			if beforeMerge != nil {
				beforeMerge()
				beforeMerge = nil
			}
			// the promotion's own pull requests (git-push names the branch it generates after the
			// promotion); a branch the steps name themselves: every open one
			open := p.world.PRs.Open(promo.Name)
			if len(open) == 0 {
				open = p.world.PRs.Open("")
			}
			for _, n := range open {
				if _, err := p.world.PRs.Merge(n); err != nil {
					return err
				}
			}
		case "argocd-update":
			if _, err := argo.RunOperations(ctx, promo.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// mergeDuringFreeze: a Stage with freeze steps that waits for a pull request is promoted two
// hours before a window of its Applications' projects opens (the first one from the model
// clock, found with Argo CD's SyncWindows.CanSync), and the reviewer merges an hour into the
// window. If the promotion then deploys, the freeze steps, which run once before the wait, let
// the release through: LocalOrchestrator.ExecuteSteps resumes a Running promotion at its
// current step and does not evaluate the earlier ones again.
func (p *project) mergeDuringFreeze(ctx context.Context, s *Decoded[kargoapi.Stage]) error {
	key := p.name + ":" + s.Value.Name
	if p.windows == nil || !hasFreezeSteps(&s.Value) || !usesStep(&s.Value, "git-wait-for-pr") || !p.windows.Has(key) {
		return nil
	}
	auto, err := api.IsAutoPromotionEnabled(ctx, p.kargo, s.Value.ObjectMeta)
	if err != nil {
		return err
	}
	var opens time.Time
	var refusing []string
	for h := 3; h <= 24*366 && opens.IsZero(); h++ {
		at := ModelClock.Add(time.Duration(h) * time.Hour)
		if refusing, err = p.windows.Refusing(key, at, !auto); err != nil {
			return err
		}
		if len(refusing) > 0 {
			opens = at
		}
	}
	if opens.IsZero() {
		return nil
	}
	stageName := p.name + "/" + s.Value.Name
	sc := Scenario{Name: "a pull request merged during a freeze", Generation: 2}
	fmt.Fprintf(p.log, "kargo: promoting %s: %s\n", stageName, sc.Name)
	target := freightFor(s, map[string]*kargoapi.Freight{})
	for _, req := range s.Value.Spec.RequestedFreight {
		if pair, ok := p.freight[req.Origin.Name]; ok {
			target = pair[1]
			break
		}
	}
	if target == nil {
		return nil
	}
	argo := ArgoCDFor(p.argos, p.name, &s.Value)
	cp, err := NewControlPlane(p.kargo, argo)
	if err != nil {
		return err
	}
	start, merged := opens.Add(-2*time.Hour), opens.Add(time.Hour)
	SetClock(start)
	defer SetClock(ModelClock)
	p.r.count("promotions run", 1)
	run := PromotionRun{Stage: stageName, Scenario: sc.Name, Freight: target.Name}
	defer func() { p.r.Promotions = append(p.r.Promotions, run) }()
	promo, err := cp.NewPromotion(ctx, &s.Value, target.Name, auto)
	if err != nil {
		run.Phase, run.Message = "Refused", oneLine(err)
		return nil
	}
	waited := false
	if err := p.runToEnd(ctx, cp, argo, promo, func() { waited = true; SetClock(merged) }); err != nil {
		return err
	}
	run.Phase, run.Message = string(promo.Status.Phase), promo.Status.Message
	for _, m := range promo.Status.StepExecutionMetadata {
		run.Steps = append(run.Steps, fmt.Sprintf("%s %s", m.Alias, m.Status))
	}
	if waited && promo.Status.Phase == kargoapi.PromotionPhaseSucceeded {
		p.r.add(s.Object, stepPath(&s.Value, firstFreezeStep(&s.Value)), "freeze-bypassed-by-pull-request", upstream("pkg/promotion", "LocalOrchestrator.ExecuteSteps"),
			"a promotion of stage %s started at %s passes its freeze steps and waits for its pull request; merged at %s, while argo cd refuses the syncs of its applications "+
				"(%s), the promotion resumes at git-wait-for-pr and deploys: kargo runs the freeze steps once, before the wait, and resumes a running promotion at its current step",
			s.Value.Name, start.UTC().Format(time.RFC3339), merged.UTC().Format(time.RFC3339), strings.Join(refusing, "; "))
	}
	return nil
}

func usesStep(stage *kargoapi.Stage, kind string) bool {
	for _, st := range stage.Spec.PromotionTemplate.Spec.Steps {
		if st.Uses == kind {
			return true
		}
	}
	return false
}

func firstFreezeStep(stage *kargoapi.Stage) string {
	for _, st := range stage.Spec.PromotionTemplate.Spec.Steps {
		if st.Uses == "fail" {
			return st.As
		}
	}
	return ""
}

// failed reports a promotion that did not succeed, at the step that failed.
func (p *project) failed(s *Decoded[kargoapi.Stage], sc Scenario, promo *kargoapi.Promotion) {
	at, kind, msg := "/spec/promotionTemplate/spec/steps", "", promo.Status.Message
	for i, m := range promo.Status.StepExecutionMetadata {
		if m.Status == kargoapi.PromotionStepStatusErrored || m.Status == kargoapi.PromotionStepStatusFailed {
			if i < len(promo.Spec.Steps) {
				kind = promo.Spec.Steps[i].Uses
			}
			if m.Message != "" {
				msg = m.Message
			}
			at = stepPath(&s.Value, m.Alias)
			break
		}
	}
	if promo.Status.Phase == kargoapi.PromotionPhaseRunning {
		msg = "still Running after every pull request was merged and every sync ran: " + msg
	}
	p.r.add(s.Object, at, "promotion-failed", stepUpstream(kind),
		"%s of stage %s: kargo's promotion ends %s at step %q (%s): %s", sc.Name, s.Value.Name, promo.Status.Phase, kind, stepAliasOf(promo, kind), oneLine(fmt.Errorf("%s", msg)))
}

func stepAliasOf(promo *kargoapi.Promotion, kind string) string {
	for i, m := range promo.Status.StepExecutionMetadata {
		if i < len(promo.Spec.Steps) && promo.Spec.Steps[i].Uses == kind {
			return m.Alias
		}
	}
	return kind
}

// stepPath is the JSON pointer of a step alias in the Stage (a task's step: its calling step).
func stepPath(stage *kargoapi.Stage, alias string) string {
	top := strings.SplitN(alias, "::", 2)[0]
	for i, st := range stage.Spec.PromotionTemplate.Spec.Steps {
		if st.As == top {
			return fmt.Sprintf("/spec/promotionTemplate/spec/steps/%d", i)
		}
	}
	return "/spec/promotionTemplate/spec/steps"
}

// stepRunners are the Go types of Kargo's built-in steps (pkg/promotion/runner/builtin).
var stepRunners = map[string]string{
	"argocd-update": "argocdUpdater", "fail": "failer", "copy": "fileCopier", "delete": "fileDeleter", "file-write": "fileWriter",
	"git-clone": "gitCloner", "git-commit": "gitCommitter", "git-merge-pr": "gitPRMerger", "git-open-pr": "gitPROpener",
	"git-wait-for-pr": "gitPRWaiter", "git-push": "gitPushPusher", "git-tag": "gitTagTagger", "git-clear": "gitTreeClearer",
	"helm-update-chart": "helmChartUpdater", "helm-template": "helmTemplateRunner", "kustomize-build": "kustomizeBuilder",
	"kustomize-set-image": "kustomizeImageSetter", "yaml-merge": "yamlMerger", "yaml-update": "yamlUpdater", "yaml-parse": "yamlParser",
}

func stepUpstream(kind string) string {
	if t, ok := stepRunners[kind]; ok {
		return upstream("pkg/promotion/runner/builtin", t+".Run")
	}
	return upstream("pkg/promotion", "LocalOrchestrator.ExecuteSteps")
}

// checkReleased checks what a successful promotion left: every Application authorized for the
// Stage was synced by it, to the commit it pushed, at a path that exists there, and the rendered
// files there carry every version of the Freight.
func (p *project) checkReleased(argo *ArgoCD, s *Decoded[kargoapi.Stage], sc Scenario, promo *kargoapi.Promotion, target *kargoapi.Freight, syncs []Sync) {
	authorized := argo.Authorized(p.name, s.Value.Name)
	ran := false
	for _, st := range promo.Spec.Steps {
		ran = ran || st.Uses == "argocd-update"
	}
	if ran && len(syncs) == 0 {
		p.r.add(s.Object, "/spec/promotionTemplate/spec/steps", "argocd-update-syncs-nothing", upstream("pkg/promotion/runner/builtin", "argocdUpdater.Run"),
			"%s of stage %s: argocd-update succeeds but syncs no application (%d applications name the stage in kargo.akuity.io/authorized-stage): the clusters do not get the release",
			sc.Name, s.Value.Name, len(authorized))
	}
	synced := map[string]Sync{}
	for _, sy := range syncs {
		synced[sy.Application] = sy
	}
	var rendered strings.Builder
	for _, app := range authorized {
		key := app.Namespace + "/" + app.Name
		sy, ok := synced[key]
		if !ok {
			p.r.add(s.Object, "/spec/promotionTemplate/spec/steps", "application-not-synced", upstream("pkg/promotion/runner/builtin", "argocdUpdater.Run"),
				"%s of stage %s: application %s is authorized for the stage but its argocd-update does not sync it: it stays on whatever %s holds",
				sc.Name, s.Value.Name, app.Name, app.Spec.GetSource().TargetRevision)
			continue
		}
		for _, src := range sy.Sources {
			files, err := p.world.Git.Files(src.RepoURL, src.Commit, src.Path)
			if err != nil {
				continue
			}
			for _, c := range files {
				rendered.WriteString(c)
			}
		}
	}
	if rendered.Len() == 0 {
		return
	}
	var missing []string
	for _, img := range target.Images {
		// by tag, or by digest where the subscription follows one (imageSelectionStrategy Digest)
		if !strings.Contains(rendered.String(), img.Tag) && !strings.Contains(rendered.String(), img.Digest) {
			missing = append(missing, fmt.Sprintf("image %s:%s", img.RepoURL, img.Tag))
		}
	}
	for _, ch := range target.Charts {
		if !strings.Contains(rendered.String(), ch.Version) {
			missing = append(missing, fmt.Sprintf("chart %s %s", ch.RepoURL, ch.Version))
		}
	}
	if len(missing) > 0 {
		p.r.add(s.Object, "/spec/promotionTemplate/spec/steps", "release-content-mismatch", upstream("pkg/promotion", "LocalOrchestrator.ExecuteSteps"),
			"%s of stage %s: the release its applications sync does not carry %s of freight %s: the clusters run something else than the freight promoted",
			sc.Name, s.Value.Name, strings.Join(missing, ", "), target.Name)
	}
}

package kargo

import (
	"context"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strings"
	"time"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	rollouts "github.com/akuity/kargo/api/stubs/rollouts/v1alpha1"
	kargoapi "github.com/akuity/kargo/api/v1alpha1"
	"github.com/akuity/kargo/pkg/api"
	"github.com/akuity/kargo/pkg/controller/promotions"
	"github.com/akuity/kargo/pkg/controller/stages"
	"github.com/akuity/kargo/pkg/credentials"
	"github.com/akuity/kargo/pkg/promotion"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/argocd"
)

// A release over simulated time. Each Warehouse makes one Freight at second 0; Kargo's own code
// decides what happens to it:
//   - which Freight a regular Stage may take: api.IsAutoPromotionEnabled, api.ListFreightAvailableToStage
//     (which calls api.ListFreightFromWarehouse, where Freight.GetLongestSoak and HasSoakedIn
//     decide soaks), api.SelectAutoPromotionCandidates (auto-promotion), and a person promoting
//     what the UI lists (that same list) where auto-promotion is off;
//   - whether a Promotion is admitted and what it does: the Promotion webhook (Default) and the
//     promotion controller's promote (Stage.IsFreightAvailable; the steps through Kargo's
//     orchestrator, where the freeze `fail` steps and their `if` run at the simulated instant:
//     expr-lang's now() reads the clock, clock.go); the other steps stand in with success, as
//     their effect on the repositories is the promotion check's (promotions.go);
//   - control-flow Stages: Kargo's ControlFlowStageReconciler.Reconcile itself;
//   - Freight status: Kargo's FreightStatus.AddCurrentStage and AddVerifiedStage.
//
// Time: Kargo reads time.Since on the timestamps it stored (soaks); moving the simulation
// forward moves every Freight timestamp back by the same amount, so Kargo's own arithmetic sees
// the simulated time. What is not Kargo's code, and why: when Stages reconcile follows Kargo's
// event handlers (regular Stages: every 5 minutes, RequeueAfter, and on upstream verification,
// their promotion's end and their verification's end; control-flow Stages only on the Freight
// events SetupWithManager watches, never on a timer); a promotion takes 60 seconds; a
// verification takes as long as Argo Rollouts runs its AnalysisRun (every metric's initialDelay
// plus count-1 intervals, dry-run metrics included: the run ends when its last metric does), as
// the Rollouts controller is not run.

// ReleaseRun is when one release reached and verified each Stage.
type ReleaseRun struct {
	Project  string            `json:"project"`
	Release  string            `json:"release"`
	At       string            `json:"at"`
	Reached  map[string]string `json:"reached"`
	Verified map[string]string `json:"verified"`
}

const (
	tick           = 60 * time.Second
	requeue        = 5 * time.Minute
	promotionTakes = 60 * time.Second
	horizon        = 7 * 24 * time.Hour
)

// leadTimeAnnotation is where the library writes the plan's lead time on the Kargo Project.
const leadTimeAnnotation = "gitops-platform.io/lead-time"

// soakAnnotation is where the library writes the soak a Stage asks of its upstreams.
const soakAnnotation = "gitops-platform.io/soak"

// Release is one release's start: when (the clock of expressions) and what the plan expects.
type Release struct {
	Name string
	At   time.Time
}

// Releases are the releases every project's Freight is sent through: one on an ordinary Monday
// (the plan says it reaches every Stage within its lead time) and one during the year-end days
// the example platform freezes (the plan says a frozen Stage holds it while its freeze is open).
var Releases = []Release{
	{"an ordinary monday", ModelClock},
	{"christmas eve", time.Date(2026, time.December, 24, 10, 0, 0, 0, time.UTC)},
}

type stageRun struct {
	stage       *Decoded[kargoapi.Stage]
	controlFlow bool
	promoting   time.Duration // the end of the running promotion (0: none)
	verifying   time.Duration // the end of the running verification (0: none)
	reached     time.Duration
	verified    time.Duration
	isReached   bool
	isVerified  bool
	next        time.Duration // the next timed reconcile
	failed      bool          // its last promotion failed (a freeze)
	failedAt    time.Duration
	heldBy      string
	verifyFor   time.Duration
	byPerson    bool // the promotion that reached it was a person's
	waking      bool
}

type releaseSim struct {
	p       *project
	windows *argocd.Windows
	rel     Release
	c       client.Client
	cp      *ControlPlane
	cf      *stages.ControlFlowStageReconciler
	runs    map[string]*stageRun
	order   []string
	now     time.Duration
	queue   map[string]bool
	objs    *Objects
	r       *Report
	freight []string
	// lastChange is when a Stage last took, reached or verified the Freight; settle is how long
	// after it nothing can change any more: every answer of Kargo's then depends only on soaks,
	// which are over once the longest one asked for is (a person retries a failed promotion an
	// hour later, hence one more hour)
	lastChange time.Duration
	settle     time.Duration
}

// CheckReleases sends one release through every project at each of Releases; windows are the
// Argo CD sync windows of the same output.
func CheckReleases(ctx context.Context, r *Report, objs *Objects, windows *argocd.Windows, log io.Writer) error {
	for _, ns := range objs.Namespaces() {
		for _, rel := range Releases {
			fmt.Fprintf(log, "kargo: release of %s on %s\n", ns, rel.Name)
			sim, err := newReleaseSim(ctx, r, objs, ns, rel)
			if err != nil {
				return fmt.Errorf("project %s: %w", ns, err)
			}
			sim.windows = windows
			if err := sim.run(ctx); err != nil {
				return fmt.Errorf("project %s, release on %s: %w", ns, rel.Name, err)
			}
			sim.judge(ctx)
		}
	}
	SetClock(ModelClock)
	return nil
}

func newReleaseSim(ctx context.Context, r *Report, objs *Objects, ns string, rel Release) (*releaseSim, error) {
	p := &project{name: ns, objs: objs}
	objects := p.baseObjects()
	var names []string
	for _, w := range p.warehouses() {
		f, err := BuildFreight(&w.Value, 1, timelineSource(&w.Value))
		if err != nil {
			return nil, err
		}
		f.DiscoveredAt = &metav1.Time{Time: time.Now()}
		objects = append(objects, f)
		names = append(names, f.Name)
	}
	for _, t := range objs.AnalysisTemplates {
		objects = append(objects, t.Value.DeepCopy())
	}
	c, err := NewKargoClient(objects...)
	if err != nil {
		return nil, err
	}
	s := &releaseSim{p: p, rel: rel, c: c, runs: map[string]*stageRun{}, queue: map[string]bool{}, objs: objs, r: r, freight: names, settle: 2*time.Hour + requeue}
	// promotions whose steps stand in, except the freeze `fail` steps, which run
	s.cp, err = NewControlPlane(c, nil)
	if err != nil {
		return nil, err
	}
	engine := orchestratorEngine{o: promotion.NewLocalOrchestrator(timelineRegistry(), c, nil, &credentials.FakeDB{}, nil, promotion.DefaultExprDataCacheFn)}
	s.cp.engine = engine
	s.cp.reconciler = newPromotionReconciler(c, c, noEvents{}, engine, promotions.ReconcilerConfig{})
	s.cf = stages.NewControlFlowStageReconciler(stages.ReconcilerConfig{IsDefaultController: true})
	setUnexported(s.cf, "client", c)
	setUnexported(s.cf, "eventSender", noEvents{})
	for _, st := range objs.StagesOf(ns) {
		run := &stageRun{stage: st, controlFlow: st.Value.IsControlFlow()}
		run.verifyFor = verificationLength(objs, &st.Value)
		if soak, ok := askedSoak(&st.Value); ok && soak+2*time.Hour > s.settle {
			s.settle = soak + 2*time.Hour
		}
		s.runs[st.Value.Name] = run
		s.order = append(s.order, st.Value.Name)
		// creation: every Stage is reconciled once
		s.queue[st.Value.Name] = true
	}
	return s, nil
}

// timelineSource are commits that need not exist: the timeline never clones.
func timelineSource(w *kargoapi.Warehouse) FreightSource {
	src := FreightSource{Commits: map[string]kargoapi.GitCommit{}, Charts: map[string][2]string{}}
	for _, sub := range w.Spec.InternalSubscriptions {
		if sub.Git != nil {
			src.Commits[sub.Git.RepoURL] = kargoapi.GitCommit{RepoURL: sub.Git.RepoURL, ID: strings.Repeat("a", 40), Branch: sub.Git.Branch}
		}
		if sub.Chart != nil {
			if first, second, err := versionsFor(sub.Chart.SemverConstraint, false); err == nil {
				src.Charts[sub.Chart.RepoURL] = [2]string{first, second}
			}
		}
	}
	return src
}

// timelineRegistry runs Kargo's own `fail` step and stands in for every other kind with success
// (and the outputs later steps read).
func timelineRegistry() promotion.StepRunnerRegistry {
	reg := promotion.MustNewStepRunnerRegistry()
	var discard []recordedStep
	for kind := range stepRunners {
		real, err := promotion.DefaultStepRunnerRegistry.Get(kind)
		if err != nil {
			continue
		}
		if kind == "fail" {
			reg.MustRegister(real)
			continue
		}
		k := kind
		reg.MustRegister(promotion.StepRunnerRegistration{Name: k, Metadata: real.Metadata,
			Value: func(promotion.StepRunnerCapabilities) promotion.StepRunner { return recorder{kind: k, out: &discard} }})
	}
	return reg
}

// setUnexported sets an unexported field of a struct pointer: the reconcilers' clients, which
// SetupWithManager sets from a controller manager this suite does not run.
func setUnexported(ptr any, field string, value any) {
	f := reflect.ValueOf(ptr).Elem().FieldByName(field)
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(value))
}

// verificationLength is how long a Stage's AnalysisRun runs when every measurement passes.
func verificationLength(objs *Objects, stage *kargoapi.Stage) time.Duration {
	if stage.Spec.Verification == nil {
		return 0
	}
	var longest time.Duration
	for _, ref := range stage.Spec.Verification.AnalysisTemplates {
		for _, t := range objs.AnalysisTemplates {
			if t.Value.Name != ref.Name || t.Value.Namespace != stage.Namespace {
				continue
			}
			for _, m := range t.Value.Spec.Metrics {
				longest = max(longest, metricLength(m))
			}
		}
	}
	return longest
}

// metricLength follows Argo Rollouts' schedule: initialDelay, then count measurements interval
// apart; no count is one measurement, or endless with an interval (Metric.EffectiveCount).
func metricLength(m rollouts.Metric) time.Duration {
	delay, _ := time.ParseDuration(string(m.InitialDelay))
	interval, _ := time.ParseDuration(string(m.Interval))
	count := 1
	switch {
	case m.Count != nil:
		count = m.Count.IntValue()
	case m.Interval != "":
		return time.Duration(math.MaxInt64 / 2)
	}
	if count < 1 {
		count = 1
	}
	return delay + time.Duration(count-1)*interval
}

func (s *releaseSim) stage(ctx context.Context, name string) (*kargoapi.Stage, error) {
	st := &kargoapi.Stage{}
	err := s.c.Get(ctx, types.NamespacedName{Namespace: s.p.name, Name: name}, st)
	return st, err
}

func (s *releaseSim) downstream(name string) []string {
	var out []string
	for _, n := range s.order {
		for _, req := range s.runs[n].stage.Value.Spec.RequestedFreight {
			for _, up := range req.Sources.Stages {
				if up == name {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

func (s *releaseSim) run(ctx context.Context) error {
	for s.now <= horizon {
		SetClock(s.rel.At.Add(s.now))
		for _, name := range s.order {
			run := s.runs[name]
			if run.promoting != 0 && run.promoting <= s.now {
				run.promoting = 0
				if err := s.promotionEnded(ctx, run); err != nil {
					return err
				}
			}
			if run.verifying != 0 && run.verifying <= s.now {
				run.verifying = 0
				if err := s.verifiedIn(ctx, run); err != nil {
					return err
				}
			}
			if !run.controlFlow && run.next <= s.now {
				s.queue[name] = true
			}
		}
		for len(s.queue) > 0 {
			names := make([]string, 0, len(s.queue))
			for n := range s.queue {
				names = append(names, n)
			}
			sort.Strings(names)
			s.queue = map[string]bool{}
			for _, n := range names {
				if err := s.reconcile(ctx, s.runs[n]); err != nil {
					return err
				}
			}
		}
		if s.done() || s.settled() {
			return nil
		}
		if err := s.advance(ctx); err != nil {
			return err
		}
	}
	return nil
}

// settled: nothing runs, and nothing changed for longer than any soak asked for.
func (s *releaseSim) settled() bool {
	for _, run := range s.runs {
		if run.promoting != 0 || run.verifying != 0 {
			return false
		}
	}
	return s.now-s.lastChange > s.settle
}

func (s *releaseSim) done() bool {
	for _, run := range s.runs {
		if !run.isVerified {
			return false
		}
	}
	return true
}

// advance moves to the next minute anything can happen in, and moves every Freight timestamp
// back by the time that passed.
func (s *releaseSim) advance(ctx context.Context) error {
	next := s.now + tick
	soonest := time.Duration(math.MaxInt64)
	for _, run := range s.runs {
		for _, t := range []time.Duration{run.promoting, run.verifying} {
			if t > s.now && t < soonest {
				soonest = t
			}
		}
		if !run.controlFlow && !run.isReached && run.next > s.now && run.next < soonest {
			soonest = run.next
		}
	}
	if soonest != time.Duration(math.MaxInt64) && soonest > next {
		next = soonest.Truncate(tick)
		if next < soonest {
			next += tick
		}
	}
	if soonest == time.Duration(math.MaxInt64) {
		// nothing is scheduled: a stuck release; look again at the horizon
		next = horizon + tick
	}
	elapsed := next - s.now
	s.now = next
	return s.shift(ctx, elapsed)
}

// shift moves every timestamp of every Freight back by d.
func (s *releaseSim) shift(ctx context.Context, d time.Duration) error {
	var list kargoapi.FreightList
	if err := s.c.List(ctx, &list); err != nil {
		return err
	}
	back := func(t *metav1.Time) {
		if t != nil {
			t.Time = t.Add(-d)
		}
	}
	for i := range list.Items {
		f := &list.Items[i]
		back(f.DiscoveredAt)
		for k, v := range f.Status.CurrentlyIn {
			back(v.Since)
			f.Status.CurrentlyIn[k] = v
		}
		for k, v := range f.Status.VerifiedIn {
			back(v.VerifiedAt)
			f.Status.VerifiedIn[k] = v
		}
		for k, v := range f.Status.ApprovedFor {
			back(v.ApprovedAt)
			f.Status.ApprovedFor[k] = v
		}
		// the status first: the fake client's Update keeps the stored status and writes it back into f
		if err := s.c.Status().Update(ctx, f); err != nil {
			return err
		}
		if err := s.c.Update(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

// reconcile is one reconcile of a Stage (or a person looking at its Freight list).
func (s *releaseSim) reconcile(ctx context.Context, run *stageRun) error {
	name := run.stage.Value.Name
	if run.controlFlow {
		if run.isVerified {
			return nil
		}
		for i := 0; i < 3; i++ {
			res, err := s.cf.Reconcile(ctx, ctrl.Request{NamespacedName: types.NamespacedName{Namespace: s.p.name, Name: name}})
			if err != nil {
				return fmt.Errorf("control-flow stage %s: %w", name, err)
			}
			if res.RequeueAfter == 0 {
				break
			}
		}
		verified, err := s.verifiedInStage(ctx, name)
		if err != nil {
			return err
		}
		if verified {
			run.isReached, run.reached = true, s.now
			run.isVerified, run.verified = true, s.now
			s.lastChange = s.now
			for _, d := range s.downstream(name) {
				s.queue[d] = true
			}
		}
		return nil
	}
	if run.next <= s.now {
		run.next = s.now + requeue
	}
	if run.isReached || run.promoting != 0 {
		return nil
	}
	stage, err := s.stage(ctx, name)
	if err != nil {
		return err
	}
	auto, err := api.IsAutoPromotionEnabled(ctx, s.c, stage.ObjectMeta)
	if err != nil {
		return err
	}
	available, err := api.ListFreightAvailableToStage(ctx, s.c, stage)
	if err != nil {
		return err
	}
	var candidates []kargoapi.Freight
	if auto {
		if run.failed {
			// autoPromoteFreight: "skipping auto-promotion to avoid an infinite loop" after a
			// failed promotion of the same Freight; a person promotes it again
			auto = false
			candidates = available
		} else {
			for _, f := range api.SelectAutoPromotionCandidates(ctx, stage, available) {
				candidates = append(candidates, f)
			}
		}
	} else {
		candidates = available
	}
	if run.failed && s.now < run.failedAt+time.Hour {
		return nil // a person tries again an hour later at the earliest
	}
	sort.Slice(candidates, func(i, j int) bool { return candidates[i].Name < candidates[j].Name })
	for i := range candidates {
		f := candidates[i]
		if !stage.IsFreightAvailable(&f) {
			continue
		}
		return s.startPromotion(ctx, run, stage, &f, auto)
	}
	return nil
}

// startPromotion creates a Promotion through the webhook and runs it through the promotion
// controller's promote at the simulated instant.
func (s *releaseSim) startPromotion(ctx context.Context, run *stageRun, stage *kargoapi.Stage, f *kargoapi.Freight, auto bool) error {
	promo, err := s.cp.NewPromotion(ctx, stage, f.Name, auto)
	if err != nil {
		run.heldBy = "kargo's promotion webhook refuses the promotion: " + oneLine(err)
		run.failed, run.failedAt = true, s.now
		return nil
	}
	promo.UID = types.UID(fmt.Sprintf("%s-%d", promo.Name, s.now/time.Second))
	if err := s.cp.Promote(ctx, promo); err != nil {
		return err
	}
	if promo.Status.Phase != kargoapi.PromotionPhaseSucceeded {
		run.failed, run.failedAt = true, s.now
		run.heldBy = fmt.Sprintf("its promotion at %s ends %s: %s", s.rel.At.Add(s.now).UTC().Format(time.RFC3339), promo.Status.Phase, firstStepMessage(promo))
		return nil
	}
	run.failed = false
	run.byPerson = !auto
	run.promoting = s.now + promotionTakes
	s.lastChange = s.now
	return nil
}

func firstStepMessage(promo *kargoapi.Promotion) string {
	for _, m := range promo.Status.StepExecutionMetadata {
		if m.Message != "" {
			return m.Message
		}
	}
	return promo.Status.Message
}

// promotionEnded records the Freight current in the Stage (FreightStatus.AddCurrentStage, what
// the Stage controller's syncFreight does) and starts or skips verification.
func (s *releaseSim) promotionEnded(ctx context.Context, run *stageRun) error {
	run.isReached, run.reached = true, s.now
	s.lastChange = s.now
	if err := s.updateFreight(ctx, run, func(st *kargoapi.FreightStatus) { st.AddCurrentStage(run.stage.Value.Name, time.Now()) }); err != nil {
		return err
	}
	s.queue[run.stage.Value.Name] = true
	if run.verifyFor == 0 {
		return s.verifiedIn(ctx, run)
	}
	if run.verifyFor > horizon {
		run.heldBy = "its verification never ends (a metric with an interval and no count)"
		return nil
	}
	run.verifying = s.now + run.verifyFor
	return nil
}

// verifiedIn marks the Freight verified (FreightStatus.AddVerifiedStage) and wakes downstream.
func (s *releaseSim) verifiedIn(ctx context.Context, run *stageRun) error {
	run.isVerified, run.verified = true, s.now
	s.lastChange = s.now
	if err := s.updateFreight(ctx, run, func(st *kargoapi.FreightStatus) { st.AddVerifiedStage(run.stage.Value.Name, time.Now()) }); err != nil {
		return err
	}
	s.queue[run.stage.Value.Name] = true
	for _, d := range s.downstream(run.stage.Value.Name) {
		s.queue[d] = true
	}
	return nil
}

func (s *releaseSim) updateFreight(ctx context.Context, run *stageRun, change func(*kargoapi.FreightStatus)) error {
	origins := map[string]bool{}
	for _, req := range run.stage.Value.Spec.RequestedFreight {
		origins[req.Origin.Name] = true
	}
	var list kargoapi.FreightList
	if err := s.c.List(ctx, &list, client.InNamespace(s.p.name)); err != nil {
		return err
	}
	for i := range list.Items {
		f := &list.Items[i]
		if !origins[f.Origin.Name] {
			continue
		}
		change(&f.Status)
		if err := s.c.Status().Update(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

func (s *releaseSim) verifiedInStage(ctx context.Context, stage string) (bool, error) {
	var list kargoapi.FreightList
	if err := s.c.List(ctx, &list, client.InNamespace(s.p.name)); err != nil {
		return false, err
	}
	for _, f := range list.Items {
		if _, ok := f.Status.VerifiedIn[stage]; ok {
			return true, nil
		}
	}
	return false, nil
}

// judge reports what the release shows against what the plan says.
func (s *releaseSim) judge(ctx context.Context) {
	rr := ReleaseRun{Project: s.p.name, Release: s.rel.Name, At: s.rel.At.UTC().Format(time.RFC3339), Reached: map[string]string{}, Verified: map[string]string{}}
	for _, name := range s.order {
		run := s.runs[name]
		if run.isReached {
			rr.Reached[name] = run.reached.String()
		}
		if run.isVerified {
			rr.Verified[name] = run.verified.String()
		}
	}
	s.r.Releases = append(s.r.Releases, rr)
	s.r.count("releases simulated", 1)
	s.judgeWindows()
	if s.rel.At.Equal(ModelClock) {
		s.judgeOrdinary(ctx)
	}
}

// judgeOrdinary: on an ordinary day the release reaches every Stage, within the plan's lead
// time, and no Stage before the soak it asks of its upstreams is over.
func (s *releaseSim) judgeOrdinary(ctx context.Context) {
	lead, hasLead := s.leadTime()
	slack := time.Duration(len(s.order)) * (promotionTakes + requeue + tick)
	for _, name := range s.order {
		run := s.runs[name]
		obj := run.stage.Object
		if !run.isVerified {
			fn, why := s.whyNot(ctx, run)
			s.r.add(obj, "/spec/requestedFreight", "freight-never-available", fn,
				"a release discovered on %s never reaches stage %s (nothing changes any more after %s): %s", s.rel.Name, name, s.now, why)
			continue
		}
		if hasLead && run.verified > lead+slack {
			s.r.add(obj, "/spec/requestedFreight", "release-late", upstream("pkg/api", "ListFreightAvailableToStage"),
				"a release discovered on %s is verified in stage %s after %s, later than the plan's lead time of %s (annotation %s) and %s of promotions and reconciles allow",
				s.rel.Name, name, run.verified, lead, leadTimeAnnotation, slack)
		}
		if soak, ok := askedSoak(&run.stage.Value); ok {
			ups := s.upstreams(run)
			end := time.Duration(0)
			for i, u := range ups {
				e := u.reached + soak
				if i == 0 || (allJoin(&run.stage.Value) && e > end) || (!allJoin(&run.stage.Value) && e < end) {
					end = e
				}
			}
			if len(ups) > 0 && run.reached < end {
				s.r.add(obj, "/spec/requestedFreight", "soak-not-enforced", upstream("api/v1alpha1", "Freight.GetLongestSoak"),
					"a release reaches stage %s after %s, before the soak of %s it asks of its upstreams is over (%s)", name, run.reached, soak, end)
			}
		}
	}
}

// judgeWindows: a release reaches no Stage at an instant Argo CD refuses the Stage's
// Applications' syncs (their AppProject's deny windows, SyncWindows.CanSync): the plan's freezes
// hold it in Kargo, before anything is pushed. A person's promotion passes a window that allows
// manual syncs, as Argo CD lets the person's sync through.
func (s *releaseSim) judgeWindows() {
	if s.windows == nil {
		return
	}
	for _, name := range s.order {
		run := s.runs[name]
		if !run.isReached {
			continue
		}
		at := s.rel.At.Add(run.reached)
		refusing, err := s.windows.Refusing(s.p.name+":"+name, at, run.byPerson)
		if err != nil || len(refusing) == 0 {
			continue
		}
		who := "kargo auto-promotes"
		if run.byPerson {
			who = "a person's promotion goes"
		}
		s.r.add(run.stage.Object, "/spec/promotionTemplate/spec/steps", "freeze-not-held", argocd.UpstreamCanSync,
			"a release discovered on %s (%s): %s into stage %s at %s, while argo cd refuses the syncs of its applications then: %s; "+
				"the release is pushed and its argocd-update waits for the window, so git describes what the clusters do not run",
			s.rel.Name, s.rel.At.UTC().Format(time.RFC3339), who, name, at.UTC().Format(time.RFC3339), strings.Join(refusing, "; "))
	}
}

func hasFreezeSteps(stage *kargoapi.Stage) bool {
	if stage.Spec.PromotionTemplate == nil {
		return false
	}
	for _, st := range stage.Spec.PromotionTemplate.Spec.Steps {
		if st.Uses == "fail" {
			return true
		}
	}
	return false
}

func (s *releaseSim) upstreams(run *stageRun) []*stageRun {
	var out []*stageRun
	for _, req := range run.stage.Value.Spec.RequestedFreight {
		for _, u := range req.Sources.Stages {
			if ur, ok := s.runs[u]; ok && ur.isReached {
				out = append(out, ur)
			}
		}
	}
	return out
}

func allJoin(stage *kargoapi.Stage) bool {
	for _, req := range stage.Spec.RequestedFreight {
		if req.Sources.AvailabilityStrategy != kargoapi.FreightAvailabilityStrategyAll {
			return false
		}
	}
	return len(stage.Spec.RequestedFreight) > 0
}

// askedSoak is the soak a Stage asks of its upstreams: requiredSoakTime, or the library's annotation.
func askedSoak(stage *kargoapi.Stage) (time.Duration, bool) {
	for _, req := range stage.Spec.RequestedFreight {
		if req.Sources.RequiredSoakTime != nil {
			return req.Sources.RequiredSoakTime.Duration, true
		}
	}
	if v, ok := stage.Annotations[soakAnnotation]; ok {
		if d, err := time.ParseDuration(v); err == nil {
			return d, true
		}
	}
	return 0, false
}

func (s *releaseSim) leadTime() (time.Duration, bool) {
	for _, p := range s.objs.Projects {
		if p.Value.Name == s.p.name {
			if d, err := time.ParseDuration(p.Value.Annotations[leadTimeAnnotation]); err == nil {
				return d, true
			}
		}
	}
	return 0, false
}

// whyNot asks Kargo, at the horizon, why a Stage holds no verified Freight: the function whose
// answer stops it, and what it answered.
func (s *releaseSim) whyNot(ctx context.Context, run *stageRun) (string, string) {
	if run.heldBy != "" {
		return upstream("pkg/controller/promotions", "reconciler.promote"), run.heldBy
	}
	if run.isReached {
		return upstream("pkg/controller/stages", "RegularStageReconciler.verifyStageFreight"), "it is never verified"
	}
	stage, err := s.stage(ctx, run.stage.Value.Name)
	if err != nil {
		return upstream("pkg/api", "ListFreightAvailableToStage"), err.Error()
	}
	var notVerified []string
	for _, u := range s.upstreamNames(run) {
		if ur, ok := s.runs[u]; ok && !ur.isVerified {
			notVerified = append(notVerified, u)
		}
	}
	if len(notVerified) > 0 && (allJoin(stage) || len(notVerified) == len(s.upstreamNames(run))) {
		return upstream("pkg/api", "ListFreightFromWarehouse"), fmt.Sprintf("its upstream stage(s) %s never verify the freight", strings.Join(notVerified, ", "))
	}
	available, err := api.ListFreightAvailableToStage(ctx, s.c, stage)
	if err != nil {
		return upstream("pkg/api", "ListFreightAvailableToStage"), err.Error()
	}
	if len(available) == 0 {
		return upstream("pkg/api", "ListFreightFromWarehouse"), fmt.Sprintf("kargo never lists the freight as available to it, not even once every soak it asks for is over "+
			"(ListFreightFromWarehouse: %s), so it is never auto-promoted nor offered to a person", soakWhy(stage))
	}
	for i := range available {
		if !stage.IsFreightAvailable(&available[i]) {
			return upstream("api/v1alpha1", "Stage.IsFreightAvailable"), "kargo lists the freight but Stage.IsFreightAvailable refuses every promotion of it (the promotion webhook)" +
				s.soakShortOf(stage, &available[i])
		}
	}
	if run.controlFlow {
		return upstream("pkg/controller/stages", "ControlFlowStageReconciler.Reconcile"),
			"the freight becomes available to it only after its upstreams' events, and a control-flow stage is reconciled on those events alone, never on a timer " +
				"(SetupWithManager): nothing reconciles it again once the soak it asks for is over"
	}
	return upstream("pkg/api", "SelectAutoPromotionCandidates"), "kargo lists the freight but never promotes it"
}

func (s *releaseSim) upstreamNames(run *stageRun) []string {
	var out []string
	for _, req := range run.stage.Value.Spec.RequestedFreight {
		out = append(out, req.Sources.Stages...)
	}
	return out
}

// soakShortOf says, by Freight.GetLongestSoak, which upstream stage a soak the stage asks for is
// not met in. ListFreightFromWarehouse counts a soak in any stage the Freight is verified in
// (e.g. the first one), IsFreightAvailable only in the requested upstream stages: a Freight can
// be listed and still refused.
func (s *releaseSim) soakShortOf(stage *kargoapi.Stage, f *kargoapi.Freight) string {
	var short []string
	for _, req := range stage.Spec.RequestedFreight {
		if req.Sources.RequiredSoakTime == nil {
			continue
		}
		for _, u := range req.Sources.Stages {
			soaked := f.GetLongestSoak(u)
			if soaked >= req.Sources.RequiredSoakTime.Duration {
				continue
			}
			why := fmt.Sprintf("its soak in %s is %s of %s", u, soaked.Truncate(time.Second), req.Sources.RequiredSoakTime.Duration)
			if ur, ok := s.runs[u]; ok && ur.controlFlow {
				why += " (" + u + " is a control-flow stage: it never holds freight current, so its soak stays 0)"
			}
			short = append(short, why)
		}
	}
	if len(short) == 0 {
		return ""
	}
	return ": Freight.GetLongestSoak: " + strings.Join(short, "; ")
}

func soakWhy(stage *kargoapi.Stage) string {
	for _, req := range stage.Spec.RequestedFreight {
		if req.Sources.RequiredSoakTime == nil {
			continue
		}
		if req.Sources.AvailabilityStrategy == kargoapi.FreightAvailabilityStrategyAll {
			return "with availabilityStrategy All and requiredSoakTime, the set of every stage the freight has soaked in must equal the upstream stages, and it has soaked in earlier stages too"
		}
		return "the freight never soaks " + req.Sources.RequiredSoakTime.Duration.String() + " in a stage it is verified in (Freight.GetLongestSoak: 0 in a stage it is not verified in)"
	}
	return "it is not verified in the upstream stages"
}

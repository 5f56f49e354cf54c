package kargo

import (
	"context"
	"fmt"
	"time"
	"unsafe"

	authnv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	rollouts "github.com/akuity/kargo/api/stubs/rollouts/v1alpha1"
	kargoapi "github.com/akuity/kargo/api/v1alpha1"
	"github.com/akuity/kargo/pkg/api"
	"github.com/akuity/kargo/pkg/controller/git"
	"github.com/akuity/kargo/pkg/controller/promotions"
	"github.com/akuity/kargo/pkg/credentials"
	"github.com/akuity/kargo/pkg/event"
	"github.com/akuity/kargo/pkg/indexer"
	"github.com/akuity/kargo/pkg/promotion"
	_ "github.com/akuity/kargo/pkg/promotion/runner/builtin" // the built-in steps register themselves
)

// Kargo's promotion controller is an unexported type that only a controller manager builds.
// Linked, not copied, so that Promotions are run by exactly Kargo's code: the constructor and the
// reconciler's promote (IsFreightAvailable, the target Freight collection, promotion.NewSteps,
// promotion.NewContext, the engine, the work directory a Running promotion resumes in). Its
// receiver is a pointer, passed as unsafe.Pointer (the same register).

//go:linkname newPromotionReconciler github.com/akuity/kargo/pkg/controller/promotions.newReconciler
func newPromotionReconciler(kargoClient client.Client, apiReader client.Reader, sender event.Sender, engine promotion.Engine, cfg promotions.ReconcilerConfig) unsafe.Pointer

//go:linkname promote github.com/akuity/kargo/pkg/controller/promotions.(*reconciler).promote
func promote(r unsafe.Pointer, ctx context.Context, promo kargoapi.Promotion, stage *kargoapi.Stage, freight *kargoapi.Freight) (*kargoapi.PromotionStatus, *time.Duration, error)

const (
	// PersonUser is who promotes by hand.
	PersonUser = "conformance-reviewer@example.invalid"
)

// noEvents is an event.Sender that keeps nothing: events are Kargo's notifications, not its decisions.
type noEvents struct{}

func (noEvents) Send(context.Context, event.Meta) error { return nil }
func (noEvents) Shutdown()                              {}

// ControlPlane is Kargo's control plane for one project over fake API servers: the Kargo one
// (with the indexes Kargo's manager registers) and the Argo CD one argocd-update talks to.
type ControlPlane struct {
	Kargo      client.Client
	ArgoCD     *ArgoCD
	reconciler unsafe.Pointer
	engine     promotion.Engine
}

// KargoScheme is the scheme of Kargo's own types, Secrets and Argo Rollouts' (as Kargo's stubs).
func KargoScheme() (*runtime.Scheme, error) {
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{kargoapi.AddToScheme, corev1.AddToScheme, rollouts.AddToScheme} {
		if err := add(scheme); err != nil {
			return nil, err
		}
	}
	return scheme, nil
}

// NewKargoClient is a fake API server with the objects, indexed as Kargo's controller manager
// indexes them (pkg/indexer).
func NewKargoClient(objects ...client.Object) (client.Client, error) {
	scheme, err := KargoScheme()
	if err != nil {
		return nil, err
	}
	return fake.NewClientBuilder().WithScheme(scheme).WithObjects(objects...).
		WithIndex(&kargoapi.Freight{}, indexer.FreightByWarehouseField, indexer.FreightByWarehouse).
		WithIndex(&kargoapi.Freight{}, indexer.FreightByCurrentStagesField, indexer.FreightByCurrentStages).
		WithIndex(&kargoapi.Freight{}, indexer.FreightByVerifiedStagesField, indexer.FreightByVerifiedStages).
		WithIndex(&kargoapi.Freight{}, indexer.FreightApprovedForStagesField, indexer.FreightApprovedForStages).
		WithIndex(&kargoapi.Promotion{}, indexer.PromotionsByStageField, indexer.PromotionsByStage).
		WithIndex(&kargoapi.Promotion{}, indexer.PromotionsByStageAndFreightField, indexer.PromotionsByStageAndFreight).
		WithIndex(&kargoapi.Promotion{}, indexer.PromotionsByTerminalField, indexer.PromotionsByTerminal).
		WithIndex(&kargoapi.Stage{}, indexer.StagesByUpstreamStagesField, indexer.StagesByUpstreamStages).
		WithIndex(&kargoapi.Stage{}, indexer.StagesByWarehouseField, indexer.StagesByWarehouse).
		WithIndex(&kargoapi.Warehouse{}, indexer.WarehousesBySubscribedURLsField, indexer.WarehousesBySubscribedURLs).
		WithStatusSubresource(&kargoapi.Freight{}, &kargoapi.Stage{}, &kargoapi.Promotion{}, &kargoapi.Warehouse{}).Build(), nil
}

// NewControlPlane builds the promotion reconciler (with the local engine: Kargo's built-in steps,
// the credentials database of a Kargo with no repository credentials, and Kargo's git user
// resolver) over the clients.
func NewControlPlane(kargo client.Client, argo *ArgoCD) (*ControlPlane, error) {
	var argoClient client.Client
	if argo != nil {
		argoClient = argo.Client
	}
	engine := promotion.NewLocalEngine(kargo, argoClient, &credentials.FakeDB{},
		promotion.NewGitUserResolver(kargo, systemResourcesNamespace, git.User{Name: "Kargo", Email: "kargo@example.invalid"}),
		promotion.DefaultExprDataCacheFn)
	cp := &ControlPlane{Kargo: kargo, ArgoCD: argo, engine: engine}
	cp.reconciler = newPromotionReconciler(kargo, kargo, noEvents{}, engine, promotions.ReconcilerConfig{APIServerBaseURL: "https://kargo.conformance.invalid"})
	return cp, nil
}

// NewPromotion is the Promotion a person (or, with auto, the controller) creates for a Stage and
// Freight, defaulted as Kargo's Promotion webhook does, and stored. The webhook's package
// (pkg/webhook/kubernetes/promotion) does not compile against the controller-runtime Argo CD
// v3.5.1 needs (v0.24: NewWebhookManagedBy takes the object), so what its Default does on create
// is restated here, each line a call of the same exported Kargo functions: the name
// (api.GeneratePromotionName), the create-actor annotation for a request that is not the
// control plane's (api.FormatEventKubernetesUserActor), the steps and vars of the Stage's
// template (the Stage's vars first), and api.InflateSteps, which turns every task step into the
// task's steps.
func (cp *ControlPlane) NewPromotion(ctx context.Context, stage *kargoapi.Stage, freight string, auto bool) (*kargoapi.Promotion, error) {
	if stage.Spec.PromotionTemplate == nil || len(stage.Spec.PromotionTemplate.Spec.Steps) == 0 {
		return nil, fmt.Errorf("Stage %q in namespace %q defines no promotion steps", stage.Name, stage.Namespace)
	}
	promo := &kargoapi.Promotion{}
	promo.Namespace = stage.Namespace
	promo.Annotations = map[string]string{}
	promo.Spec.Stage = stage.Name
	promo.Spec.Freight = freight
	promo.Name = api.GeneratePromotionName(stage.Name, freight)
	if !auto {
		promo.Annotations[kargoapi.AnnotationKeyCreateActor] = api.FormatEventKubernetesUserActor(authnv1.UserInfo{Username: PersonUser})
	}
	promo.Spec.Steps = stage.Spec.PromotionTemplate.Spec.Steps
	promo.Spec.Vars = append(append([]kargoapi.ExpressionVariable{}, stage.Spec.Vars...), stage.Spec.PromotionTemplate.Spec.Vars...)
	if err := api.InflateSteps(ctx, cp.Kargo, promo); err != nil {
		return nil, fmt.Errorf("failed to inflate Promotion steps: %w", err)
	}
	promo.UID = types.UID(promo.Name)
	if err := cp.Kargo.Create(ctx, promo); err != nil {
		return nil, fmt.Errorf("storing promotion %s: %w", promo.Name, err)
	}
	return promo, nil
}

// Promote runs promote once, as the reconciler does on each reconcile of a non-terminal
// Promotion, and stores the status it returns.
func (cp *ControlPlane) Promote(ctx context.Context, promo *kargoapi.Promotion) error {
	stage := &kargoapi.Stage{}
	if err := cp.Kargo.Get(ctx, types.NamespacedName{Namespace: promo.Namespace, Name: promo.Spec.Stage}, stage); err != nil {
		return err
	}
	freight := &kargoapi.Freight{}
	if err := cp.Kargo.Get(ctx, types.NamespacedName{Namespace: promo.Namespace, Name: promo.Spec.Freight}, freight); err != nil {
		return err
	}
	if promo.Status.Phase == "" {
		promo.Status.Phase = kargoapi.PromotionPhaseRunning
	}
	status, _, err := promote(cp.reconciler, ctx, *promo, stage, freight)
	if status != nil {
		promo.Status = *status
	}
	if err != nil {
		// the reconciler's own handling of an error from promote
		if promo.Status.Phase != kargoapi.PromotionPhaseRunning || status == nil {
			promo.Status.Phase = kargoapi.PromotionPhaseErrored
		}
		promo.Status.Message = err.Error()
	}
	return cp.Kargo.Status().Update(ctx, promo)
}

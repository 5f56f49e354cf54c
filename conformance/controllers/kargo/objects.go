package kargo

import (
	"fmt"
	"sort"

	"sigs.k8s.io/controller-runtime/pkg/client"

	corev1 "k8s.io/api/core/v1"

	rollouts "github.com/akuity/kargo/api/stubs/rollouts/v1alpha1"
	kargoapi "github.com/akuity/kargo/api/v1alpha1"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/controllers/argocd"
	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

// Decoded is an object of the manifests with the upstream type it decodes to.
type Decoded[T any] = argocd.Decoded[T]

// Objects are the Kargo objects of a manifests directory, decoded into Kargo's own types (a
// Warehouse's UnmarshalJSON fills its InternalSubscriptions, as on the API server), and the
// Secrets Kargo reads, as the API server stores them.
type Objects struct {
	ClusterConfig         *Decoded[kargoapi.ClusterConfig]
	Projects              []*Decoded[kargoapi.Project]
	ProjectConfigs        []*Decoded[kargoapi.ProjectConfig]
	Warehouses            []*Decoded[kargoapi.Warehouse]
	Stages                []*Decoded[kargoapi.Stage]
	PromotionTasks        []*Decoded[kargoapi.PromotionTask]
	ClusterPromotionTasks []*Decoded[kargoapi.ClusterPromotionTask]
	AnalysisTemplates     []*Decoded[rollouts.AnalysisTemplate]
	Secrets               []*Decoded[corev1.Secret]
	// Count is how many objects the directory holds.
	Count int
}

const kargoAPIVersion = "kargo.akuity.io/v1alpha1"

// LoadObjects reads every Kargo object (and Secret) below dir.
func LoadObjects(dir string) (*Objects, error) {
	all, err := suite.ReadManifests(dir)
	if err != nil {
		return nil, err
	}
	o := &Objects{Count: len(all)}
	for i := range all {
		obj := &all[i]
		// Kargo runs on the hub: a cluster with an Argo CD of its own gets its files
		// (<app>--<cluster>.k8s.yaml) applied to it, not to the hub
		if argocd.InstanceOf(obj.Source) != "" {
			continue
		}
		var err error
		switch {
		case obj.APIVersion == kargoAPIVersion && obj.Kind == "ClusterConfig":
			o.ClusterConfig, err = argocd.Decode[kargoapi.ClusterConfig](obj)
		case obj.APIVersion == kargoAPIVersion && obj.Kind == "Project":
			err = add(&o.Projects, obj)
		case obj.APIVersion == kargoAPIVersion && obj.Kind == "ProjectConfig":
			err = add(&o.ProjectConfigs, obj)
		case obj.APIVersion == kargoAPIVersion && obj.Kind == "Warehouse":
			err = add(&o.Warehouses, obj)
		case obj.APIVersion == kargoAPIVersion && obj.Kind == "Stage":
			err = add(&o.Stages, obj)
		case obj.APIVersion == kargoAPIVersion && obj.Kind == "PromotionTask":
			err = add(&o.PromotionTasks, obj)
		case obj.APIVersion == kargoAPIVersion && obj.Kind == "ClusterPromotionTask":
			err = add(&o.ClusterPromotionTasks, obj)
		case obj.APIVersion == "argoproj.io/v1alpha1" && obj.Kind == "AnalysisTemplate":
			err = add(&o.AnalysisTemplates, obj)
		case obj.APIVersion == "v1" && obj.Kind == "Secret":
			var d *Decoded[corev1.Secret]
			if d, err = argocd.Decode[corev1.Secret](obj); err == nil {
				err = argocd.StoreSecret(&d.Value)
				o.Secrets = append(o.Secrets, d)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return o, nil
}

func add[T any](list *[]*Decoded[T], obj *suite.Object) error {
	d, err := argocd.Decode[T](obj)
	if err != nil {
		return err
	}
	*list = append(*list, d)
	return nil
}

// Namespaces are the Kargo projects (namespaces) that have Stages, sorted.
func (o *Objects) Namespaces() []string {
	seen := map[string]bool{}
	for _, s := range o.Stages {
		seen[s.Value.Namespace] = true
	}
	out := make([]string, 0, len(seen))
	for ns := range seen {
		out = append(out, ns)
	}
	sort.Strings(out)
	return out
}

// StagesOf are the Stages of one project, in manifest order.
func (o *Objects) StagesOf(namespace string) []*Decoded[kargoapi.Stage] {
	var out []*Decoded[kargoapi.Stage]
	for _, s := range o.Stages {
		if s.Value.Namespace == namespace {
			out = append(out, s)
		}
	}
	return out
}

// Warehouse is the Warehouse namespace/name, or an error naming what is missing.
func (o *Objects) Warehouse(namespace, name string) (*Decoded[kargoapi.Warehouse], error) {
	for _, w := range o.Warehouses {
		if w.Value.Namespace == namespace && w.Value.Name == name {
			return w, nil
		}
	}
	return nil, fmt.Errorf("no Warehouse %s/%s", namespace, name)
}

// copies are deep copies of the decoded objects, for a fake API server to own.
func copies[T any, P interface {
	*T
	client.Object
}](xs []*Decoded[T]) []client.Object {
	out := make([]client.Object, 0, len(xs))
	for _, x := range xs {
		out = append(out, P(&x.Value).DeepCopyObject().(client.Object))
	}
	return out
}

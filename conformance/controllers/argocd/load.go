package argocd

import (
	"fmt"
	"path"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	core "k8s.io/kubernetes/pkg/apis/core"
	corev1conv "k8s.io/kubernetes/pkg/apis/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/argoproj/argo-cd/v3/common"
	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

// Object is one YAML document of the manifests directory, with where it came from.
type Object = suite.Object

// loadDir reads every *.yaml / *.yml below dir, every document of each, in path order, and keeps
// every document that names a kind.
func loadDir(dir string) ([]*Object, error) {
	all, err := suite.ReadManifests(dir)
	if err != nil {
		return nil, err
	}
	var objects []*Object
	for i := range all {
		if all[i].Kind != "" {
			objects = append(objects, &all[i])
		}
	}
	return objects, nil
}

// instanceOf names the Argo CD a manifest file is applied to. The library writes what a cluster
// with its own Argo CD needs as <app>--<cluster>.k8s.yaml (README "Central and per-cluster Argo
// CD"); every other file is for the hub. "" is the hub.
func instanceOf(source string) string { return InstanceOf(source) }

// InstanceOf names the Argo CD (the cluster) a manifest file is applied to: "" for the hub.
func InstanceOf(source string) string {
	base := path.Base(source)
	base = base[:len(base)-len(path.Ext(base))]
	base = strings.TrimSuffix(base, ".k8s")
	if i := strings.LastIndex(base, "--"); i >= 0 {
		return base[i+2:]
	}
	return ""
}

// instances groups the objects by the Argo CD they are applied to, hub first, then by cluster.
func instances(objects []*Object) ([]string, map[string][]*Object) {
	by := map[string][]*Object{}
	for _, obj := range objects {
		name := instanceOf(obj.Source)
		by[name] = append(by[name], obj)
	}
	names := make([]string, 0, len(by))
	for name := range by {
		names = append(names, name)
	}
	sort.Strings(names)
	return names, by
}

// DefaultNamespace is Argo CD's namespace when neither the output nor the caller says another.
const DefaultNamespace = "argocd"

// controllerNamespace is the namespace an instance's Argo CD runs in: the hub's from the flag when
// one is given; else where the instance's AppProjects (then ApplicationSets) are, which the
// library writes into its Argo CD's namespace (ArgoCdTopology's namespace); else argocd. Argo CD
// reads its cluster Secrets and AppProjects, and its ApplicationSet controller generates, only in
// its own namespace (applicationset/controllers ArgoCDNamespace, settings.NewClusterInformer):
// judged in another, a hub that runs in `gitops` generated no Application and nothing was checked.
func controllerNamespace(instance string, objects []*Object, hub string) string {
	if instance == "" && hub != "" {
		return hub
	}
	for _, kind := range []string{"AppProject", "ApplicationSet"} {
		for _, obj := range objects {
			if obj.Kind == kind && obj.Namespace != "" {
				return obj.Namespace
			}
		}
	}
	if hub != "" {
		return hub
	}
	return DefaultNamespace
}

// Fleet is the Argo CD objects one Argo CD instance reads, decoded into Argo CD's own types.
type Fleet struct {
	Instance        string // "" for the hub, else the cluster that runs this Argo CD
	Namespace       string // the Argo CD namespace objects without one are applied to
	Projects        []*Decoded[v1alpha1.AppProject]
	ApplicationSets []*Decoded[v1alpha1.ApplicationSet]
	Applications    []*Decoded[v1alpha1.Application]
	ClusterSecrets  []*Decoded[corev1.Secret]
	// repository and repo-creds Secrets (the write variants are for the commit server, not read here)
	RepositorySecrets []*Decoded[corev1.Secret]
}

// Decoded is an object together with the upstream type it decodes to.
type Decoded[T any] struct {
	Object *Object
	Value  T
}

// Decode decodes an object into T (sigs.k8s.io/yaml: JSON tags, unknown fields dropped, as the
// API server's typed clients do).
func Decode[T any](obj *Object) (*Decoded[T], error) {
	d := &Decoded[T]{Object: obj}
	if err := yaml.Unmarshal(obj.JSON, &d.Value); err != nil {
		return nil, fmt.Errorf("%s: %s %s: %w", obj.Source, obj.Kind, obj.Name, err)
	}
	return d, nil
}

// newFleet decodes the objects Argo CD reads. A Secret is stored the way the API server stores
// it: stringData merged over data (k8s.io/kubernetes pkg/apis/core/v1
// Convert_v1_Secret_To_core_Secret), because the cluster generator and SecretToCluster read data.
func newFleet(instance string, objects []*Object, namespace string) (*Fleet, error) {
	f := &Fleet{Instance: instance, Namespace: namespace}
	for _, obj := range objects {
		if obj.Namespace == "" {
			obj.Namespace = namespace
		}
		var err error
		switch {
		case obj.APIVersion == "argoproj.io/v1alpha1" && obj.Kind == "AppProject":
			err = appendDecoded(&f.Projects, obj)
		case obj.APIVersion == "argoproj.io/v1alpha1" && obj.Kind == "ApplicationSet":
			err = appendDecoded(&f.ApplicationSets, obj)
		case obj.APIVersion == "argoproj.io/v1alpha1" && obj.Kind == "Application":
			err = appendDecoded(&f.Applications, obj)
		case obj.APIVersion == "v1" && obj.Kind == "Secret":
			var d *Decoded[corev1.Secret]
			if d, err = Decode[corev1.Secret](obj); err == nil {
				d.Value.Namespace = obj.Namespace
				err = StoreSecret(&d.Value)
				switch d.Value.Labels[common.LabelKeySecretType] {
				case common.LabelValueSecretTypeCluster:
					f.ClusterSecrets = append(f.ClusterSecrets, d)
				case common.LabelValueSecretTypeRepository, common.LabelValueSecretTypeRepoCreds:
					f.RepositorySecrets = append(f.RepositorySecrets, d)
				}
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return f, nil
}

func appendDecoded[T any](list *[]*Decoded[T], obj *Object) error {
	d, err := Decode[T](obj)
	if err != nil {
		return err
	}
	if m, ok := any(&d.Value).(interface{ SetNamespace(string) }); ok {
		m.SetNamespace(obj.Namespace)
	}
	*list = append(*list, d)
	return nil
}

// StoreSecret turns a Secret as written into the Secret the API server stores: stringData merged
// over data (k8s.io/kubernetes pkg/apis/core/v1 Convert_v1_Secret_To_core_Secret).
func StoreSecret(s *corev1.Secret) error {
	var stored core.Secret
	if err := corev1conv.Convert_v1_Secret_To_core_Secret(s, &stored, nil); err != nil {
		return fmt.Errorf("secret %s: %w", s.Name, err)
	}
	s.Data = stored.Data
	s.StringData = nil
	return nil
}

// Command apiserver runs synthesized objects of the kinds with a pinned CRD through
// k8s.io/apiextensions-apiserver v0.34.3 (Kargo v1.11.2's Kubernetes version): pruning,
// defaulting, OpenAPI schema and CEL validation, as a create request does. It prints one JSON
// report (see CONFORMANCE-PROTOCOL.md).
package main

import (
	"io"
	"os"
	"sort"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(argv []string, stdout, stderr io.Writer) int {
	flags := suite.NewFlags("apiserver", "a JSON array of {kind, value, accepted}: no kind is checked by this module", stderr)
	schemas := flags.Set.String("schemas", "", "the schema bundle (default: imports/schema-bundle.json of the project holding --manifests)")
	if !flags.Parse(argv) {
		return suite.ExitFailed
	}
	report := newReport()
	if flags.Values != "" {
		return suite.FinishWithoutValues("apiserver", flags.Values, report, stdout, stderr)
	}
	file := *schemas
	if file == "" {
		found, err := findBundle(flags.Manifests)
		if err != nil {
			return suite.Fail("apiserver", err, stderr)
		}
		file = found
	}
	crds, err := loadBundle(file)
	if err != nil {
		return suite.Fail("apiserver", err, stderr)
	}
	objects, err := readManifests(flags.Manifests)
	if err != nil {
		return suite.Fail("apiserver", err, stderr)
	}
	checkManifests(objects, crds, report)
	return suite.Finish("apiserver", report, stdout, stderr)
}

// checkManifests admits every object whose group and kind has a pinned CRD.
func checkManifests(objects []Object, crds map[crdKey]map[string]*servedVersion, r *Report) {
	admitters := map[schema.GroupVersionKind]*admitter{}
	for _, obj := range objects {
		r.Count("objects")
		gv, err := schema.ParseGroupVersion(obj.APIVersion)
		if err != nil {
			continue
		}
		versions, pinned := crds[crdKey{gv.Group, obj.Kind}]
		if !pinned {
			r.Count("objects without a pinned crd (not checked)")
			continue
		}
		r.Count("objects/" + obj.Kind)
		sv, served := versions[gv.Version]
		if !served {
			r.Add(obj.Finding("/apiVersion", "version-not-served", upstream("pkg/apiserver", "crdHandler.ServeHTTP"), "the api server answers 404: %s %s is not a served version of the pinned crd (served: %v)", obj.APIVersion, obj.Kind, keys(versions)))
			continue
		}
		gvk := gv.WithKind(obj.Kind)
		a, ok := admitters[gvk]
		if !ok {
			a = newAdmitter(gvk, sv)
			admitters[gvk] = a
		}
		a.admit(obj, r)
	}
}

func keys(m map[string]*servedVersion) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

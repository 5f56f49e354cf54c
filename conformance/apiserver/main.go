// Command apiserver runs synthesized objects of the kinds with a pinned CRD through
// k8s.io/apiextensions-apiserver v0.34.3 (Kargo v1.11.2's Kubernetes version): pruning,
// defaulting, OpenAPI schema and CEL validation, as a create request does. It prints one JSON
// report (see CONFORMANCE-PROTOCOL.md).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(argv []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("apiserver", flag.ContinueOnError)
	flags.SetOutput(stderr)
	manifests := flags.String("manifests", "", "a directory of synthesized YAML")
	before := flags.String("before", "", "the same platform synthesized before a change (not compared by this module)")
	values := flags.String("values", "", "a JSON array of {kind, value, accepted}: no kind is checked by this module")
	schemas := flags.String("schemas", "", "the schema bundle (default: imports/schema-bundle.json of the project holding --manifests)")
	if err := flags.Parse(argv); err != nil {
		return 2
	}
	if (*manifests == "") == (*values == "") || flags.NArg() > 0 {
		fmt.Fprintln(stderr, "apiserver: give exactly one of --manifests DIR or --values FILE")
		return 2
	}
	report := newReport()
	if *values != "" {
		// The protocol's value kinds are Go parsers checked by conformance/rollouts and argocd.
		if _, err := os.ReadFile(*values); err != nil {
			fmt.Fprintf(stderr, "apiserver: %v\n", err)
			return 2
		}
		return write(report, stdout, stderr)
	}
	if *before != "" {
		if info, err := os.Stat(*before); err != nil || !info.IsDir() {
			fmt.Fprintf(stderr, "apiserver: --before %s is not a readable directory\n", *before)
			return 2
		}
	}
	file := *schemas
	if file == "" {
		found, err := findBundle(*manifests)
		if err != nil {
			fmt.Fprintf(stderr, "apiserver: %v\n", err)
			return 2
		}
		file = found
	}
	crds, err := loadBundle(file)
	if err != nil {
		fmt.Fprintf(stderr, "apiserver: %v\n", err)
		return 2
	}
	objects, err := readManifests(*manifests)
	if err != nil {
		fmt.Fprintf(stderr, "apiserver: %v\n", err)
		return 2
	}
	checkManifests(objects, crds, report)
	return write(report, stdout, stderr)
}

func write(report *Report, stdout, stderr io.Writer) int {
	if err := report.write(stdout); err != nil {
		fmt.Fprintf(stderr, "apiserver: %v\n", err)
		return 2
	}
	return 0
}

// checkManifests admits every object whose group and kind has a pinned CRD.
func checkManifests(objects []Object, crds map[crdKey]map[string]*servedVersion, r *Report) {
	admitters := map[schema.GroupVersionKind]*admitter{}
	for _, obj := range objects {
		r.count("objects")
		gv, err := schema.ParseGroupVersion(obj.APIVersion)
		if err != nil {
			continue
		}
		versions, pinned := crds[crdKey{gv.Group, obj.Kind}]
		if !pinned {
			r.count("objects without a pinned crd (not checked)")
			continue
		}
		r.count("objects/" + obj.Kind)
		sv, served := versions[gv.Version]
		if !served {
			r.add(obj.finding("/apiVersion", "version-not-served", upstream("pkg/apiserver", "crdHandler.ServeHTTP"), "the api server answers 404: %s %s is not a served version of the pinned crd (served: %v)", obj.APIVersion, obj.Kind, keys(versions)))
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
	return sortedStrings(out)
}

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
)

// BundlePath is where the project keeps the pinned CRDs' schemas (written by `npx projen import`).
var BundlePath = filepath.Join("imports", "schema-bundle.json")

// bundle is the part of imports/schema-bundle.json this module reads (src/testkit/schema-bundle.ts).
type bundle struct {
	CRDs []struct {
		Group      string `json:"group"`
		Kind       string `json:"kind"`
		Namespaced bool   `json:"namespaced"`
		Source     string `json:"source"`
		Versions   []struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
		} `json:"versions"`
	} `json:"crds"`
}

// servedVersion is what the API server builds from one served version of a CRD.
type servedVersion struct {
	source     string
	namespaced bool
	internal   *apiextensionsinternal.JSONSchemaProps
	structural *structuralschema.Structural
	validator  apiservervalidation.SchemaValidator
}

// crdKey is group/kind; versions are looked up below it.
type crdKey struct{ group, kind string }

// loadBundle converts every served version the way the CRD handler does (customresource_handler.go
// getOrCreateServingInfoFor): v1 -> internal, NewStructural, ValidateStructural, PruneDefaults,
// NewSchemaValidator.
func loadBundle(file string) (map[crdKey]map[string]*servedVersion, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var b bundle
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s is not a schema bundle: %w", file, err)
	}
	out := map[crdKey]map[string]*servedVersion{}
	for _, crd := range b.CRDs {
		key := crdKey{crd.Group, crd.Kind}
		if _, seen := out[key]; seen {
			continue // the first definition of a group and kind wins (schema-bundle.ts)
		}
		out[key] = map[string]*servedVersion{}
		for _, v := range crd.Versions {
			sv, err := serve(v.Schema)
			if err != nil {
				return nil, fmt.Errorf("%s: %s %s/%s: %w", file, crd.Source, crd.Kind, v.Name, err)
			}
			sv.source, sv.namespaced = crd.Source, crd.Namespaced
			out[key][v.Name] = sv
		}
	}
	return out, nil
}

func serve(raw json.RawMessage) (*servedVersion, error) {
	v1 := &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{}}
	if err := json.Unmarshal(raw, v1.OpenAPIV3Schema); err != nil {
		return nil, err
	}
	internal := &apiextensionsinternal.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(v1, internal, nil); err != nil {
		return nil, err
	}
	s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("not a structural schema: %w", err)
	}
	// The CRD could not have been created otherwise (ValidateCustomResourceDefinition calls it).
	if errs := structuralschema.ValidateStructural(nil, s); len(errs) > 0 {
		return nil, fmt.Errorf("not a structural schema: %v", errs.ToAggregate())
	}
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, err
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, err
	}
	return &servedVersion{internal: internal.OpenAPIV3Schema, structural: s, validator: validator}, nil
}

// findBundle walks up from the manifests directory to the project root (the directory with a
// package.json) and takes its imports/schema-bundle.json: the suite reads nothing outside the project.
func findBundle(manifests string) (string, error) {
	dir, err := filepath.Abs(manifests)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
			file := filepath.Join(dir, BundlePath)
			if _, err := os.Stat(file); err != nil {
				return "", fmt.Errorf("the project %s has no %s: run 'npx projen import', or pass --schemas", dir, BundlePath)
			}
			return file, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no project (package.json) above " + manifests + ": pass --schemas FILE")
		}
		dir = parent
	}
}

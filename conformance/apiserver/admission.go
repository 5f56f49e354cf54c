package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/registry/rest"
)

const apiextensionsModule = "k8s.io/apiextensions-apiserver@v0.34.3"

// StandInNamespace is the request namespace of a namespaced object that names none: Argo CD
// applies it into the Application's destination namespace, which the manifest does not know.
const StandInNamespace = "default"

func upstream(pkg, fn string) string {
	return fmt.Sprintf("%s k8s.io/apiextensions-apiserver/%s.%s", apiextensionsModule, pkg, fn)
}

// admitter holds what the API server builds once per served version: the strategy (whose
// constructor compiles the CEL rules) and the CEL validator used to tell CEL errors apart.
type admitter struct {
	version  *servedVersion
	validate func(context.Context, *unstructured.Unstructured) field.ErrorList
	prepare  func(context.Context, *unstructured.Unstructured)
	cel      *cel.Validator
}

func newAdmitter(gvk schema.GroupVersionKind, sv *servedVersion) *admitter {
	s := customresource.NewStrategy(nil, sv.namespaced, gvk, sv.validator, nil, sv.structural, nil, nil, nil)
	return &admitter{
		version:  sv,
		validate: func(ctx context.Context, u *unstructured.Unstructured) field.ErrorList { return s.Validate(ctx, u) },
		prepare:  func(ctx context.Context, u *unstructured.Unstructured) { s.PrepareForCreate(ctx, u) },
		cel:      cel.NewValidator(sv.structural, true, celconfig.PerCallLimit),
	}
}

// admit runs one object through what a create request goes through in the API server:
// decode, prune and coerce (unstructuredSchemaCoercer.apply), default (unstructuredDefaulter),
// the request namespace (rest.BeforeCreate), PrepareForCreate and Validate (customResourceStrategy).
func (a *admitter) admit(obj Object, r *Report) {
	s := a.version.structural
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(obj.JSON); err != nil {
		r.Add(obj.Finding("", "schema-invalid", "k8s.io/apimachinery@v0.34.3 k8s.io/apimachinery/pkg/apis/meta/v1/unstructured.Unstructured.UnmarshalJSON", "the api server cannot decode the %s: %v", strings.ToLower(obj.Kind), err))
		return
	}
	original := u.DeepCopy().Object
	a.prune(obj, u, original, r)
	structuraldefaulting.Default(u.Object, s)
	requestNamespace := u.GetNamespace()
	if requestNamespace == "" {
		requestNamespace = StandInNamespace
	}
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(requestNamespace, a.version.namespaced), u); err != nil {
		r.Add(obj.Finding("/metadata/namespace", "schema-invalid", "k8s.io/apiserver@v0.34.3 k8s.io/apiserver/pkg/registry/rest.EnsureObjectNamespaceMatchesRequestNamespace", "the api server refuses the %s: %v", strings.ToLower(obj.Kind), err))
		return
	}
	ctx := context.Background()
	a.prepare(ctx, u)
	errs := a.validate(ctx, u)
	if len(errs) == 0 {
		r.Count("admitted")
		return
	}
	r.Count("refused")
	// Which upstream function decided each error: the strategy's list is the verdict, the
	// separate calls only attribute its entries.
	celErrs, _ := a.cel.Validate(ctx, nil, s, u.Object, nil, celconfig.RuntimeCELCostBudget)
	decidedBy := []struct {
		errs     field.ErrorList
		code, fn string
	}{
		{celErrs, "cel-rule-failed", upstream("pkg/apiserver/schema/cel", "Validator.Validate")},
		{apiservervalidation.ValidateCustomResource(nil, u.UnstructuredContent(), a.version.validator), "schema-invalid", upstream("pkg/apiserver/validation", "ValidateCustomResource")},
		{structurallisttype.ValidateListSetsAndMaps(nil, s, u.Object), "schema-invalid", upstream("pkg/apiserver/schema/listtype", "ValidateListSetsAndMaps")},
		{schemaobjectmeta.Validate(nil, u.Object, s, false), "schema-invalid", upstream("pkg/apiserver/schema/objectmeta", "Validate")},
	}
	for _, e := range errs {
		code, fn := "schema-invalid", upstream("pkg/registry/customresource", "NewStrategy(...).Validate")
		if e.Field == "<nil>" {
			// hasBlockingErr: the CEL rules were skipped because of the errors above.
			r.Add(obj.Finding("", "cel-rules-skipped", fn, "the api server did not evaluate the cel rules of the %s: %s", strings.ToLower(obj.Kind), e.Detail))
			continue
		}
		for _, d := range decidedBy {
			if contains(d.errs, e) {
				code, fn = d.code, d.fn
				break
			}
		}
		r.Add(obj.Finding(pointer(original, e.Field), code, fn, "the api server refuses the %s: %s", strings.ToLower(obj.Kind), e.Error()))
	}
}

// prune drops what the pinned schema does not know, as unstructuredSchemaCoercer.apply does on a
// request with field validation (returnUnknownFieldPaths): each dropped field is a finding.
func (a *admitter) prune(obj Object, u *unstructured.Unstructured, original map[string]any, r *Report) {
	s := a.version.structural
	kind, apiVersion := u.GetKind(), u.GetAPIVersion()
	meta, found, metaUnknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		r.Add(obj.Finding("/metadata", "schema-invalid", upstream("pkg/apiserver/schema/objectmeta", "GetObjectMetaWithOptions"), "the api server cannot decode metadata: %v", err))
		return
	}
	report := func(paths []string, fn string) {
		for _, p := range paths {
			ptr := pointer(original, p)
			r.Add(obj.Finding(ptr, "field-pruned", fn, "the api server silently drops %s (value %s): the pinned schema of %s has no such field", p, show(lookup(original, ptr)), a.version.source))
		}
	}
	report(metaUnknown, upstream("pkg/apiserver/schema/objectmeta", "GetObjectMetaWithOptions"))
	report(structuralpruning.PruneWithOptions(u.Object, s, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}), upstream("pkg/apiserver/schema/pruning", "PruneWithOptions"))
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s)
	ferr, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, s, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	if ferr != nil {
		r.Add(obj.Finding(pointer(original, ferr.Field), "schema-invalid", upstream("pkg/apiserver/schema/objectmeta", "CoerceWithOptions"), "the api server refuses the %s: %s", strings.ToLower(obj.Kind), ferr.Error()))
	}
	report(paths, upstream("pkg/apiserver/schema/objectmeta", "CoerceWithOptions"))
	u.SetKind(kind)
	u.SetAPIVersion(apiVersion)
	if found {
		_ = schemaobjectmeta.SetObjectMeta(u.Object, meta)
	}
	r.Count("pruning checked")
}

func contains(list field.ErrorList, e *field.Error) bool {
	for _, x := range list {
		if x.Error() == e.Error() {
			return true
		}
	}
	return false
}

// pointer turns a field path of the API server ("spec.steps[0].config", "metadata.labels[a.b/c]",
// or a pruned path "spec.x.y" whose keys may hold dots) into a JSON pointer, walking the object to
// tell a dot inside a key from a separator.
func pointer(obj any, path string) string {
	var out strings.Builder
	cur := obj
	rest := path
	for rest != "" {
		rest = strings.TrimPrefix(rest, ".")
		if strings.HasPrefix(rest, "[") {
			end := strings.Index(rest, "]")
			if end < 0 {
				break
			}
			key := rest[1:end]
			rest = rest[end+1:]
			cur = step(&out, cur, key)
			continue
		}
		end := strings.IndexAny(rest, ".[")
		if end < 0 {
			end = len(rest)
		}
		key := rest[:end]
		// A map key with dots: extend while the longer key exists and the shorter does not.
		if m, ok := cur.(map[string]any); ok {
			for _, exists := m[key]; !exists && end < len(rest) && rest[end] == '.'; _, exists = m[key] {
				next := strings.IndexAny(rest[end+1:], ".[")
				if next < 0 {
					next = len(rest) - end - 1
				}
				end = end + 1 + next
				key = rest[:end]
			}
		}
		rest = rest[end:]
		cur = step(&out, cur, key)
	}
	return out.String()
}

func step(out *strings.Builder, cur any, key string) any {
	out.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1"))
	switch c := cur.(type) {
	case map[string]any:
		return c[key]
	case []any:
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(c) {
			return c[i]
		}
	}
	return nil
}

func lookup(obj any, ptr string) any {
	cur := obj
	for _, token := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		key := strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			cur = c[key]
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	return cur
}

// show renders a value for a message, cut short: pruned fields hold whole sub-objects.
func show(v any) string {
	text, _ := json.Marshal(v)
	if len(text) > 80 {
		return string(text[:77]) + "..."
	}
	return string(text)
}

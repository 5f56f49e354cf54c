package kargo

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
	_ "unsafe" // go:linkname

	kargoapi "github.com/akuity/kargo/api/v1alpha1"
)

// stepShape is what a Stage's promotion does, without what only names it: the steps in order
// (uses or task, if, continueOnError, retry, the names of their vars, the keys of their config
// with every boolean and number, and every expression with the Stage's name taken out), and the
// Warehouses it promotes from; a run of like steps counts once. The aliases, the vars' values,
// the config's plain strings (branches, paths, repository URLs, cluster names) and the text
// around expressions (a commit message or pull request naming the wave's clusters) are left
// out: Stages that differ only there,
// such as the per-cluster Stages of one wave, run the same steps with the same options on Kargo's
// engine, and their first promotions check each one's branch and rendered content.
func stepShape(stage *kargoapi.Stage) string {
	type step struct {
		Uses            string                           `json:"uses,omitempty"`
		Task            *kargoapi.PromotionTaskReference `json:"task,omitempty"`
		If              string                           `json:"if,omitempty"`
		ContinueOnError bool                             `json:"continueOnError,omitempty"`
		Retry           *kargoapi.PromotionStepRetry     `json:"retry,omitempty"`
		Vars            []string                         `json:"vars,omitempty"`
		Config          any                              `json:"config,omitempty"`
	}
	own := stage.Namespace + "/" + stage.Name // the shape of a Stage whose steps do not encode: its own
	shape := struct {
		Steps      []json.RawMessage `json:"steps"`
		Warehouses []string          `json:"warehouses"`
	}{}
	if stage.Spec.PromotionTemplate != nil {
		for _, s := range stage.Spec.PromotionTemplate.Spec.Steps {
			st := step{Uses: s.Uses, Task: s.Task, If: withoutName(s.If, stage.Name), ContinueOnError: s.ContinueOnError, Retry: s.Retry}
			for _, v := range s.Vars {
				st.Vars = append(st.Vars, v.Name)
			}
			if s.Config != nil {
				var config any
				if err := json.Unmarshal(s.Config.Raw, &config); err != nil {
					return own
				}
				st.Config = configShape(config, stage.Name)
			}
			encoded, err := json.Marshal(st)
			if err != nil {
				return own
			}
			// a run of like steps (one render task per cluster of a wave) is one step: a wave of
			// three clusters runs the steps of a wave of one, three times
			if n := len(shape.Steps); n > 0 && string(shape.Steps[n-1]) == string(encoded) {
				continue
			}
			shape.Steps = append(shape.Steps, encoded)
		}
	}
	for _, req := range stage.Spec.RequestedFreight {
		shape.Warehouses = append(shape.Warehouses, req.Origin.Name)
	}
	out, err := json.Marshal(shape)
	if err != nil {
		return own
	}
	return string(out)
}

func configShape(v any, stage string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = configShape(e, stage)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = configShape(e, stage)
		}
		return out
	case string:
		if hasExpression(x) {
			return templateShape(x, stage)
		}
		return ""
	}
	return v
}

// nextExpression is Kargo's own scan of a template (pkg/expressions/json_templates.go): the text
// before the next expression (`${{ … }}` or `${% … %}`, the earliest), the expression, the rest,
// and an error for an unclosed one.
//
//go:linkname nextExpression github.com/akuity/kargo/pkg/expressions.nextExpression
func nextExpression(template string) (string, string, string, error)

func hasExpression(s string) bool {
	_, expression, _, err := nextExpression(s)
	return expression != "" || err != nil
}

// templateShape is a template string without what only names or describes: each expression with
// the Stage's name taken out, and a "·" for each run of text between them when the text cannot
// change what the template evaluates to. EvaluateTemplate types the whole result (a quoted
// string, a number, a boolean, JSON, else a string), so that holds when the template starts with
// text whose first letter no such value starts with (a commit message or a pull request's
// description that lists the wave's clusters); otherwise the text is kept, as is a template with
// an unclosed expression (Kargo fails the step on it).
func templateShape(template, stage string) string {
	if first, _ := utf8.DecodeRuneInString(template); !unicode.IsLetter(first) || strings.ContainsRune("tTfFnNiI", first) {
		return withoutName(template, stage)
	}
	var b strings.Builder
	for rest := template; rest != ""; {
		before, expression, after, err := nextExpression(rest)
		if err != nil {
			return withoutName(template, stage)
		}
		if before != "" || expression == "" {
			b.WriteString("·")
		}
		if expression == "" {
			break
		}
		b.WriteString("${{" + withoutName(expression, stage) + "}}")
		rest = after
	}
	return b.String()
}

// withoutName is an expression with the Stage's name replaced (a commit message or an `if` that
// names its Stage).
func withoutName(expr, stage string) string {
	if stage == "" {
		return expr
	}
	return strings.ReplaceAll(expr, stage, "<stage>")
}

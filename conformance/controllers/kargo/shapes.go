package kargo

import (
	"encoding/json"
	"strings"

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
		if strings.Contains(x, "${{") {
			return expressionsOf(x, stage)
		}
		return ""
	}
	return v
}

// expressionsOf is a template string's expressions, each with the Stage's name taken out, and a
// "·" for each run of plain text between them. Kargo's expressions are ${{ ... }} ending at the
// first }} (pkg/expressions/json_templates.go); a string that is one expression alone evaluates to
// a value of its own type, one with text around it to a string, so where there is text counts
// and what it says does not (a pull request's description that lists the wave's clusters).
func expressionsOf(template, stage string) string {
	var b strings.Builder
	for rest := template; rest != ""; {
		start := strings.Index(rest, "${{")
		if start < 0 {
			b.WriteString("·")
			break
		}
		if start > 0 {
			b.WriteString("·")
		}
		end := strings.Index(rest[start:], "}}")
		if end < 0 { // not an expression Kargo would evaluate: text
			b.WriteString("·")
			break
		}
		b.WriteString(withoutName(rest[start:start+end+2], stage))
		rest = rest[start+end+2:]
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

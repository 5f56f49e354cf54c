package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"go.yaml.in/yaml/v3"
)

// compileWhen compiles a whenExpression as pkg/webhook/external/generic_actions.go
// whenExpressionMet does: expr.Compile(expression) with no option (no env, so no type check).
func compileWhen(expression string) error {
	_, err := expr.Compile(expression)
	return err
}

// runWhen is the rest of whenExpressionMet: expr.Run on the env, and the result must be a bool
// (its error otherwise: "match expression result %q is of type %T; expected bool").
func runWhen(expression string, env map[string]any) (result any, isBool bool, err error) {
	program, err := expr.Compile(expression)
	if err != nil {
		return nil, false, err
	}
	result, err = expr.Run(program, env)
	if err != nil {
		return nil, false, err
	}
	_, isBool = result.(bool)
	return result, isBool, nil
}

// A delimiter pair pkg/expressions/json_templates.go supportedDelimiters lists.
type delimiters struct{ start, end string }

var supportedDelimiters = []delimiters{{"${{", "}}"}, {"${%", "%}"}}

// templatePart is a literal and the expression after it ("" after the last one).
type templatePart struct{ literal, expression string }

// splitTemplate finds the expressions of a template as json_templates.go nextExpression does:
// the earliest start delimiter of either pair, then the first end delimiter of that pair after
// it; no end is the error "unclosed expression". No start delimiter at all is the caller's case
// (EvaluateTemplate returns such a string as it is).
func splitTemplate(template string) ([]templatePart, error) {
	var parts []templatePart
	for {
		var d *delimiters
		at := -1
		for i := range supportedDelimiters {
			if j := strings.Index(template, supportedDelimiters[i].start); j >= 0 && (at < 0 || j < at) {
				at, d = j, &supportedDelimiters[i]
			}
		}
		if d == nil {
			return append(parts, templatePart{literal: template}), nil
		}
		rest := template[at+len(d.start):]
		end := strings.Index(rest, d.end)
		if end < 0 {
			return nil, fmt.Errorf("unclosed expression: expected %q but reached end of template", d.end)
		}
		parts = append(parts, templatePart{literal: template[:at], expression: rest[:end]})
		template = rest[end+len(d.end):]
	}
}

func hasDelimiter(template string) bool {
	for _, d := range supportedDelimiters {
		if strings.Contains(template, d.start) {
			return true
		}
	}
	return false
}

// templateOptions are the options json_templates.go EvaluateTemplate compiles every expression
// with when the caller passes none (list.go evalAsString passes none): the functions quote,
// unsafeQuote, asYAML and asJSON, each declared func(any) string. Their bodies restate
// quoteFunc, unsafeQuoteFunc, asYAMLFunc and asJSONFunc (with go.yaml.in/yaml/v3, as Kargo).
func templateOptions() []expr.Option {
	return []expr.Option{
		expr.Function("quote", quote, new(func(any) string)),
		expr.Function("unsafeQuote", unsafeQuote, new(func(any) string)),
		expr.Function("asYAML", asYAML, new(func(any) string)),
		expr.Function("asJSON", asJSON, new(func(any) string)),
	}
}

func quote(a ...any) (any, error) {
	if s, ok := a[0].(string); ok {
		return fmt.Sprintf("%q", s), nil
	}
	return unsafeQuote(a...)
}

func unsafeQuote(a ...any) (any, error) {
	b, err := json.Marshal(a[0])
	if err != nil {
		return nil, fmt.Errorf("error applying quote() function: %w", err)
	}
	return fmt.Sprintf(`"%s"`, b), nil
}

func asYAML(a ...any) (any, error) {
	b, err := yaml.Marshal(a[0])
	if err != nil {
		return nil, fmt.Errorf("error applying asYAML() function: %w", err)
	}
	return fmt.Sprintf("\"%s\"", b), nil
}

func asJSON(a ...any) (any, error) {
	b, err := json.MarshalIndent(a[0], "", "  ")
	if err != nil {
		return nil, fmt.Errorf("error applying asJSON() function: %w", err)
	}
	return fmt.Sprintf("\"%s\n\"", b), nil
}

// compileTemplateExpression compiles one expression of a template as json_templates.go
// evaluateExpression does.
func compileTemplateExpression(expression string) error {
	_, err := expr.Compile(expression, templateOptions()...)
	return err
}

// runTemplateExpression is the rest of evaluateExpression: a string result as it is, any other
// JSON-marshaled.
func runTemplateExpression(expression string, env map[string]any) (string, error) {
	program, err := expr.Compile(expression, templateOptions()...)
	if err != nil {
		return "", err
	}
	result, err := expr.Run(program, env)
	if err != nil {
		return "", err
	}
	if s, ok := result.(string); ok {
		return s, nil
	}
	b, err := json.Marshal(result)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// templateValue is what EvaluateTemplate makes of the concatenated result: a trailing newline
// set aside; quoted, the string inside the quotes; else a float64, a bool or a JSON value when it
// parses as one; else the string. list.go evalAsString then requires a string.
func templateValue(result string) any {
	trimmed := strings.TrimSuffix(result, "\n")
	newline := ""
	if trimmed != result {
		newline = "\n"
	}
	if len(trimmed) > 1 && strings.HasPrefix(trimmed, `"`) && strings.HasSuffix(trimmed, `"`) {
		return trimmed[1:len(trimmed)-1] + newline
	}
	if f, err := strconv.ParseFloat(trimmed, 64); err == nil {
		return f
	}
	if b, err := strconv.ParseBool(trimmed); err == nil {
		return b
	}
	var v any
	if err := json.Unmarshal([]byte(trimmed), &v); err == nil {
		return v
	}
	return trimmed + newline
}

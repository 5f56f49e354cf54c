package main

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr"
)

// Kargo v1.11.2 evaluates expressions with expr-lang v1.17.8 (its go.mod). Its own packages
// cannot be linked here (pkg/expressions/function imports the Kargo API types and a Kubernetes
// client, megabytes of code for a few signatures), so the few lines around the expr-lang calls
// are restated, each naming what it restates; expr-lang's parser and checker, which decide, are
// the real ones.

// kargoWhenAnswer compiles a generic webhook receiver's whenExpression exactly as
// pkg/webhook/external/generic_actions.go whenExpressionMet does: expr.Compile(expression), no
// option and no env (so an unknown name is found only on a request, not here).
func kargoWhenAnswer(r Request) Answer {
	if _, err := expr.Compile(r.Value); err != nil {
		return Answer{Error: firstLine(err)}
	}
	return Answer{}
}

// delimiters restates pkg/expressions/json_templates.go supportedDelimiters.
var delimiters = [][2]string{{"${{", "}}"}, {"${%", "%}"}}

// nextExpression restates json_templates.go nextExpression: the earliest start delimiter of
// either pair, then the first end delimiter of that pair after it.
func nextExpression(template string) (before, expression, after string, err error) {
	start, pair := -1, -1
	for i, d := range delimiters {
		if at := strings.Index(template, d[0]); at >= 0 && (start < 0 || at < start) {
			start, pair = at, i
		}
	}
	if pair < 0 {
		return "", "", template, nil
	}
	exprStart := start + len(delimiters[pair][0])
	end := strings.Index(template[exprStart:], delimiters[pair][1])
	if end < 0 {
		return "", "", "", fmt.Errorf("unclosed expression: expected %q but reached end of template", delimiters[pair][1])
	}
	return template[:start], template[exprStart : exprStart+end], template[exprStart+end+len(delimiters[pair][1]):], nil
}

// kargoFunctions are the functions Kargo declares for an expression environment, with the
// parameter types it declares (pkg/expressions/function/functions.go). Results that are Kargo
// API types (kargoapi.Image, GitCommit, Chart, FreightOrigin) are declared `any` here: a field
// of them is not checked, the call itself is.
func kargoFunctions(env string) ([]expr.Option, error) {
	any1 := func(...any) (any, error) { return nil, nil }
	fn := func(name string, types ...any) expr.Option { return expr.Function(name, any1, types...) }
	// json_templates.go EvaluateTemplate appends these to every template's options
	template := []expr.Option{
		fn("quote", new(func(any) string)),
		fn("unsafeQuote", new(func(any) string)),
		fn("asYAML", new(func(any) string)),
		fn("asJSON", new(func(any) string)),
	}
	// FreightOperations
	freight := []expr.Option{
		fn("warehouse", new(func(name string) any)),
		fn("commitFrom", new(func(repoURL string, origin any) any), new(func(repoURL string) any)),
		fn("imageFrom", new(func(repoURL string, origin any) any), new(func(repoURL string) any)),
		fn("chartFrom", new(func(repoURL string, chartName string, origin any) any), new(func(repoURL string, chartName string) any),
			new(func(repoURL string, origin any) any), new(func(repoURL string) any)),
		fn("artifactFrom", new(func(name string, origin any) any), new(func(name string) any)),
		fn("freightMetadata", new(func(freightRefName string) map[string]any)),
	}
	// DataOperations
	data := []expr.Option{
		fn("configMap", new(func(name string) map[string]string)),
		fn("sharedConfigMap", new(func(name string) map[string]string)),
		fn("secret", new(func(name string) map[string]string)),
		fn("sharedSecret", new(func(name string) map[string]string)),
		fn("stageMetadata", new(func(stageName string) map[string]any)),
	}
	// UtilityOperations
	utility := []expr.Option{
		fn("semverDiff", new(func(ver1Str, ver2Str string) string)),
		fn("semverParse", new(func(verStr string) any)),
	}
	// StatusOperations: always, failure and success take any arguments (no types declared)
	status := []expr.Option{
		expr.Function("always", any1),
		expr.Function("failure", any1),
		expr.Function("success", any1),
		fn("status", new(func(alias string) string)),
	}
	switch env {
	case "template":
		// a webhook receiver's selector values (pkg/webhook/external/list.go evalAsString)
		return template, nil
	case "verification":
		// a Stage's verification args (pkg/controller/stages/regular_stages.go, with
		// pkg/rollouts/analysis_run_builder.go): Data, Freight and Utility operations
		return concat(data, freight, utility, template), nil
	case "promotion":
		// a promotion step's if and config (pkg/promotion/evaluator.go ShouldSkip, Config):
		// Freight, Data, Status and Utility operations
		return concat(freight, data, status, utility, template), nil
	}
	return nil, fmt.Errorf("bad request: unknown Kargo expression environment %q", env)
}

func concat(lists ...[]expr.Option) []expr.Option {
	var all []expr.Option
	for _, l := range lists {
		all = append(all, l...)
	}
	return all
}

// kargoTemplateAnswer compiles every expression of a template as json_templates.go
// EvaluateTemplate does (evaluateTemplate, nextExpression, evaluateExpression's expr.Compile)
// with the functions of the environment r.Env. A text without a start delimiter is no template.
func kargoTemplateAnswer(r Request) Answer {
	options, err := kargoFunctions(r.Env)
	if err != nil {
		return Answer{Error: err.Error()}
	}
	rest := r.Value
	for {
		_, expression, after, err := nextExpression(rest)
		if err != nil {
			return Answer{Error: err.Error()}
		}
		if expression == "" {
			return Answer{}
		}
		if _, err := expr.Compile(expression, options...); err != nil {
			return Answer{Error: fmt.Sprintf("%s, in ${{ %s }}", firstLine(err), strings.TrimSpace(expression))}
		}
		rest = after
	}
}

// firstLine is an expr error's message and position, without the source excerpt it prints below.
func firstLine(err error) string {
	text := err.Error()
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		return text[:i]
	}
	return text
}

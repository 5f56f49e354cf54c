package main

import (
	"fmt"
	"math"

	"github.com/antonmedv/expr"
)

// rolloutsEnv restates the environment Argo Rollouts v1.9.1 compiles a metric's
// successCondition and failureCondition in (utils/evaluate/evaluate.go EvalCondition:
// expr.Compile(condition, expr.Env(env)) with github.com/antonmedv/expr v1.15.5, its go.mod
// pin): result, asInt, asFloat, isNaN, isInf, isNil, default. result has the type the provider
// hands over: a Prometheus vector is []float64, a scalar float64
// (metricproviders/prometheus/prometheus.go processResponse); a web metric's JSON value is
// unknown until the answer comes (nil here, so the checker does not type it).
func rolloutsEnv(result string) (map[string]any, error) {
	env := map[string]any{
		"asInt":   func(any) int64 { return 0 },
		"asFloat": func(any) float64 { return 0 },
		"isNaN":   math.IsNaN,
		"isInf":   func(float64) bool { return false },
		"isNil":   func(any) bool { return false },
		"default": func(any, any) any { return nil },
	}
	switch result {
	case "vector":
		env["result"] = []float64{}
	case "scalar":
		env["result"] = float64(0)
	case "any":
		env["result"] = nil
	default:
		return nil, fmt.Errorf("bad request: unknown result type %q", result)
	}
	return env, nil
}

// rolloutsConditionAnswer compiles a condition as EvalCondition does, then asks the checker
// whether it can be a bool: EvalCondition fails a measurement whose condition evaluates to
// anything else ("expected bool, but got %T").
func rolloutsConditionAnswer(r Request) Answer {
	env, err := rolloutsEnv(r.Env)
	if err != nil {
		return Answer{Error: err.Error()}
	}
	if _, err := expr.Compile(r.Value, expr.Env(env)); err != nil {
		return Answer{Error: firstLine(err)}
	}
	if _, err := expr.Compile(r.Value, expr.Env(env), expr.AsBool()); err != nil {
		return Answer{Error: fmt.Sprintf("does not evaluate to a bool (%s)", firstLine(err))}
	}
	return Answer{}
}

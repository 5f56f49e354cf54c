package main

import (
	"errors"
	"fmt"
	"math"
	"reflect"

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
		// a map value gives the checker a concrete type; a struct field of interface type is
		// unknown until run time, as the JSON value is, while every other name stays checked
		return nil, errAnyResult
	default:
		return nil, fmt.Errorf("bad request: unknown result type %q", result)
	}
	return env, nil
}

var errAnyResult = errors.New("result of unknown type")

// webEnv is rolloutsEnv with result of unknown type: a web metric's JSON value.
type webEnv struct {
	Result  any                `expr:"result"`
	AsInt   func(any) int64    `expr:"asInt"`
	AsFloat func(any) float64  `expr:"asFloat"`
	IsNaN   func(float64) bool `expr:"isNaN"`
	IsInf   func(float64) bool `expr:"isInf"`
	IsNil   func(any) bool     `expr:"isNil"`
	Default func(any, any) any `expr:"default"`
}

// rolloutsConditionAnswer compiles a condition as EvalCondition does, then asks the checker
// whether it can be a bool: EvalCondition fails a measurement whose condition evaluates to
// anything else ("expected bool, but got %T").
func rolloutsConditionAnswer(r Request) Answer {
	var env any
	env, err := rolloutsEnv(r.Env)
	if errors.Is(err, errAnyResult) {
		env = webEnv{}
	} else if err != nil {
		return Answer{Error: err.Error()}
	}
	program, err := expr.Compile(r.Value, expr.Env(env))
	if err != nil {
		return Answer{Error: firstLine(err)}
	}
	// the checker's type of the whole condition: a known type other than bool fails every
	// measurement; an unknown one (interface) is decided by the answer, as in Rollouts
	if t := program.Node.Type(); t != nil && t.Kind() != reflect.Bool && t.Kind() != reflect.Interface {
		return Answer{Error: fmt.Sprintf("does not evaluate to a bool (expected bool, but got %v)", t)}
	}
	return Answer{}
}

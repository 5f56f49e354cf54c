package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// The functions that decide each finding live, at Kargo v1.11.2 (protocol: module@version
// package.Function).
const (
	kargo          = "github.com/akuity/kargo@v1.11.2 github.com/akuity/kargo/pkg/"
	upstreamWhen   = kargo + "webhook/external.whenExpressionMet"
	upstreamTmpl   = kargo + "expressions.EvaluateTemplate"
	upstreamString = kargo + "webhook/external.evalAsString"
	upstreamTypes  = "github.com/akuity/kargo/api@v1.11.2 github.com/akuity/kargo/api/v1alpha1.GenericWebhookAction"
)

// What each failure does to a request: handleAction ends the action in Error and getHandler
// answers 500 (shouldReportAsError), nothing is refreshed.
const (
	liveWhen     = `every request ends the action in Error ("Error evaluating whenExpression"), the receiver answers 500 and refreshes nothing`
	liveSelector = `every request that passes whenExpression ends the action in Error ("Error evaluating targetSelectionCriteria"), the receiver answers 500 and refreshes nothing`
)

// The fields of a ClusterConfig's or ProjectConfig's spec.webhookReceivers that Kargo evaluates
// (api/v1alpha1 GenericWebhookReceiverConfig, GenericWebhookAction,
// GenericWebhookTargetSelectionCriteria).
type configSpec struct {
	Spec struct {
		WebhookReceivers []struct {
			Name    string `json:"name"`
			Generic *struct {
				Actions []action `json:"actions"`
			} `json:"generic"`
		} `json:"webhookReceivers"`
	} `json:"spec"`
}

type action struct {
	Action                  string            `json:"action"`
	WhenExpression          string            `json:"whenExpression"`
	Parameters              map[string]string `json:"parameters"`
	TargetSelectionCriteria []struct {
		Name          string `json:"name"`
		IndexSelector struct {
			MatchIndices []struct {
				Value string `json:"value"`
			} `json:"matchIndices"`
		} `json:"indexSelector"`
		LabelSelector struct {
			MatchLabels      map[string]string `json:"matchLabels"`
			MatchExpressions []struct {
				Values []string `json:"values"`
			} `json:"matchExpressions"`
		} `json:"labelSelector"`
	} `json:"targetSelectionCriteria"`
}

// receiverCheck is one generic receiver of one object, run against its sample (nil: none).
type receiverCheck struct {
	obj    Object
	name   string
	sample *Sample
	r      *Report
}

// checkManifests checks every generic receiver of every ClusterConfig and ProjectConfig.
func checkManifests(objects []Object, samples map[string]Sample, r *Report) {
	for _, obj := range objects {
		r.Count("objects")
		if obj.APIVersion != "kargo.akuity.io/v1alpha1" || (obj.Kind != "ClusterConfig" && obj.Kind != "ProjectConfig") {
			continue
		}
		var cfg configSpec
		if err := json.Unmarshal(obj.JSON, &cfg); err != nil {
			r.Add(obj.Finding("/spec/webhookReceivers", "receivers-unreadable", upstreamTypes, "the webhook receivers do not decode as kargo's api/v1alpha1 types (the api server refuses the object): %v", err))
			continue
		}
		for i, rcv := range cfg.Spec.WebhookReceivers {
			r.Count("receivers")
			if rcv.Generic == nil {
				continue
			}
			r.Count("generic receivers")
			c := receiverCheck{obj: obj, name: rcv.Name, r: r}
			if s, ok := samples[rcv.Name]; ok {
				c.sample = &s
			} else {
				r.Count("generic receivers without a sample request (compiled, not evaluated)")
			}
			for j, a := range rcv.Generic.Actions {
				c.checkAction(fmt.Sprintf("/spec/webhookReceivers/%d/generic/actions/%d", i, j), a)
			}
		}
	}
}

func (c receiverCheck) checkAction(at string, a action) {
	var env map[string]any // nil: no sample, compile only
	if c.sample != nil {
		env = newEnv(*c.sample, a.Parameters)
	}
	if a.WhenExpression != "" {
		c.checkWhen(at+"/whenExpression", a.WhenExpression, env)
	}
	for k, t := range a.TargetSelectionCriteria {
		tsc := fmt.Sprintf("%s/targetSelectionCriteria/%d", at, k)
		c.checkTemplate(tsc+"/name", t.Name, env)
		for m, mi := range t.IndexSelector.MatchIndices {
			c.checkTemplate(fmt.Sprintf("%s/indexSelector/matchIndices/%d/value", tsc, m), mi.Value, env)
		}
		keys := make([]string, 0, len(t.LabelSelector.MatchLabels))
		for key := range t.LabelSelector.MatchLabels {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		for _, key := range keys {
			c.checkTemplate(tsc+"/labelSelector/matchLabels/"+strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1"), t.LabelSelector.MatchLabels[key], env)
		}
		for m, me := range t.LabelSelector.MatchExpressions {
			for n, v := range me.Values {
				c.checkTemplate(fmt.Sprintf("%s/labelSelector/matchExpressions/%d/values/%d", tsc, m, n), v, env)
			}
		}
	}
}

func (c receiverCheck) checkWhen(at, expression string, env map[string]any) {
	c.r.Count("when expressions compiled")
	if err := compileWhen(expression); err != nil {
		c.add(at, "when-expression-does-not-compile", upstreamWhen, "receiver %q: whenExpression %q does not compile (expr-lang v1.17.8: %s): %s", c.name, expression, oneLine(err), liveWhen)
		return
	}
	if env == nil {
		return
	}
	c.r.Count("when expressions evaluated")
	result, isBool, err := runWhen(expression, env)
	if err != nil {
		c.add(at, "when-expression-error-on-sample", upstreamWhen, "receiver %q: whenExpression %q fails on the sample request (expr-lang v1.17.8: %s): such a request ends the action in Error, the receiver answers 500 and refreshes nothing", c.name, expression, oneLine(err))
		return
	}
	if !isBool {
		c.add(at, "when-expression-not-bool", upstreamWhen, "receiver %q: whenExpression %q yields %s (%T) on the sample request, kargo expects a bool: %s", c.name, expression, show(result), result, liveWhen)
		return
	}
	if result == false {
		// Kargo would stop here for this request; the selectors are run anyway, as on one that matches
		c.r.Count("when expressions false on the sample (selectors evaluated anyway)")
	}
	c.evaluated(at, expression, result)
}

func (c receiverCheck) checkTemplate(at, template string, env map[string]any) {
	if !hasDelimiter(template) {
		return // EvaluateTemplate returns it as it is
	}
	parts, err := splitTemplate(template)
	if err != nil {
		c.add(at, "selector-template-unclosed", upstreamTmpl, "receiver %q: selector value %q is not a template kargo can read (%v): %s", c.name, template, err, liveSelector)
		return
	}
	compiled := true
	for _, p := range parts {
		if p.expression == "" {
			continue
		}
		c.r.Count("selector expressions compiled")
		if err := compileTemplateExpression(p.expression); err != nil {
			c.add(at, "selector-expression-does-not-compile", upstreamTmpl, "receiver %q: the expression %q of selector value %q does not compile (expr-lang v1.17.8: %s): %s", c.name, strings.TrimSpace(p.expression), template, oneLine(err), liveSelector)
			compiled = false
		}
	}
	if env == nil || !compiled {
		return
	}
	var out strings.Builder
	for _, p := range parts {
		out.WriteString(p.literal)
		if p.expression == "" {
			continue
		}
		c.r.Count("selector expressions evaluated")
		s, err := runTemplateExpression(p.expression, env)
		if err != nil {
			c.add(at, "selector-expression-error-on-sample", upstreamTmpl, "receiver %q: the expression %q of selector value %q fails on the sample request (expr-lang v1.17.8: %s): such a request ends the action in Error, the receiver answers 500 and refreshes nothing", c.name, strings.TrimSpace(p.expression), template, oneLine(err))
			return
		}
		out.WriteString(s)
	}
	value := templateValue(out.String())
	if _, ok := value.(string); !ok {
		c.add(at, "selector-value-not-string", upstreamString, "receiver %q: selector value %q evaluates to %s (%T) on the sample request, kargo needs a string: %s", c.name, template, show(value), value, liveSelector)
		return
	}
	c.evaluated(at, template, value)
}

func (c receiverCheck) add(at, code, upstream, format string, args ...any) {
	c.r.Add(c.obj.Finding(at, code, upstream, format, args...))
}

func (c receiverCheck) evaluated(at, expression string, result any) {
	c.r.Evaluations = append(c.r.Evaluations, Evaluation{
		Source: c.obj.Source, Kind: c.obj.Kind, Namespace: c.obj.Namespace, Name: c.obj.Name,
		Receiver: c.name, Path: at, Expression: expression, Result: show(result),
	})
}

// show is a value as JSON (a string quoted), or Go's %v when it has none.
func show(v any) string {
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprintf("%v", v)
}

// oneLine is an expr-lang error on one line: its compile errors draw the expression and a caret
// under the position on the lines after the message.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.Split(err.Error(), "\n")[0]), " ")
}

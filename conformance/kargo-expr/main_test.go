package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// receiverYAML is a ProjectConfig (or ClusterConfig) with one generic receiver named name: one
// Refresh action with whenExpression when (omitted when "") and the index selector value value.
func receiverYAML(kind, name, when, value string, extra ...string) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	y := "apiVersion: kargo.akuity.io/v1alpha1\nkind: " + kind + "\nmetadata:\n  name: app\n  namespace: app\nspec:\n  webhookReceivers:\n" +
		"    - name: github\n      github:\n        secretRef:\n          name: s\n" +
		"    - name: " + name + "\n      generic:\n        secretRef:\n          name: s\n        actions:\n          - action: Refresh\n"
	if when != "" {
		y += "            whenExpression: " + q(when) + "\n"
	}
	y += "            parameters:\n              kind: image\n"
	y += "            targetSelectionCriteria:\n              - kind: Warehouse\n                indexSelector:\n                  matchIndices:\n                    - key: subscribedURLs\n                      operator: Equals\n                      value: " + q(value) + "\n"
	for _, e := range extra {
		y += e
	}
	return y
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// sampleDir writes the test fixture's sample request of receiver "custom" and returns its directory.
func sampleDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "requests")
	writeFile(t, dir, "custom.json", `{
  "headers": {"x-event": ["push"], "X-Multi": ["a", "b"]},
  "query": "ref=main&count=3",
  "body": {"repository": {"url": "https://git.example/acme/app.git"}, "count": 7, "tags": ["v1"]}
}`)
	return dir
}

type result struct {
	Report
	code   int
	stderr string
}

func runOn(t *testing.T, manifest string, args ...string) result {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, dir, "app.k8s.yaml", manifest)
	var stdout, stderr strings.Builder
	code := run(append([]string{"--manifests", dir}, args...), &stdout, &stderr)
	var r result
	if code == 0 {
		if err := json.Unmarshal([]byte(stdout.String()), &r.Report); err != nil {
			t.Fatalf("report: %v\n%s", err, stdout.String())
		}
	}
	r.code, r.stderr = code, stderr.String()
	return r
}

func codes(r result) []string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.Path+" "+f.Code)
	}
	return out
}

const (
	whenPath  = "/spec/webhookReceivers/1/generic/actions/0/whenExpression"
	valuePath = "/spec/webhookReceivers/1/generic/actions/0/targetSelectionCriteria/0/indexSelector/matchIndices/0/value"
)

func TestTheExampleReceiverCompilesAndEvaluatesOnItsECRPushEvent(t *testing.T) {
	var stdout, stderr strings.Builder
	if code := run([]string{"--manifests", filepath.Join("..", "..", "manifests")}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var r Report
	if err := json.Unmarshal([]byte(stdout.String()), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 0 {
		t.Fatalf("findings on manifests/: %+v", r.Findings)
	}
	got := map[string]string{}
	for _, e := range r.Evaluations {
		if e.Receiver == "ecr-ml" {
			got[e.Path[strings.LastIndex(e.Path, "/")+1:]] = e.Result
		}
	}
	want := map[string]string{"whenExpression": "true", "value": `"123456789012.dkr.ecr.us-east-1.amazonaws.com/ml/model-server"`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("ecr-ml evaluated to %v, want %v", got, want)
	}
}

func TestFailsIfWhenExpressionDoesNotCompile(t *testing.T) {
	r := runOn(t, receiverYAML("ProjectConfig", "custom", "request.header('X' ==", "${{ normalizeGit(request.body.repository.url) }}"), "--requests", sampleDir(t))
	if !reflect.DeepEqual(codes(r), []string{whenPath + " when-expression-does-not-compile"}) {
		t.Fatalf("findings %v", codes(r))
	}
	f := r.Findings[0]
	if f.Kind != "ProjectConfig" || f.Namespace != "app" || f.Name != "app" ||
		f.Upstream != "github.com/akuity/kargo@v1.11.2 github.com/akuity/kargo/pkg/webhook/external.whenExpressionMet" ||
		!strings.HasPrefix(f.Message, `receiver "custom": whenExpression "request.header('X' ==" does not compile (expr-lang v1.17.8: unexpected token EOF (1:21)): every request ends the action in Error`) {
		t.Fatalf("finding %+v", f)
	}
}

func TestFailsIfWhenExpressionIsNotABoolOnTheSample(t *testing.T) {
	r := runOn(t, receiverYAML("ProjectConfig", "custom", "request.header('x-event')", "${{ normalizeGit(request.body.repository.url) }}"), "--requests", sampleDir(t))
	if !reflect.DeepEqual(codes(r), []string{whenPath + " when-expression-not-bool"}) ||
		!strings.Contains(r.Findings[0].Message, `yields "push" (string) on the sample request, kargo expects a bool`) {
		t.Fatalf("findings %+v", r.Findings)
	}
}

func TestFailsIfWhenExpressionErrorsOnTheSample(t *testing.T) {
	// compiles (no env: no type check) but calls Header.Get with a number
	r := runOn(t, receiverYAML("ProjectConfig", "custom", "request.header(1) == 'push'", "${{ normalizeGit(request.body.repository.url) }}"), "--requests", sampleDir(t))
	if !reflect.DeepEqual(codes(r), []string{whenPath + " when-expression-error-on-sample"}) {
		t.Fatalf("findings %+v", r.Findings)
	}
}

func TestSelectorValueFindings(t *testing.T) {
	for _, c := range []struct{ value, code, message string }{
		{"${{ normalizeImage('x' + }}", "selector-expression-does-not-compile", `the expression "normalizeImage('x' +" of selector value "${{ normalizeImage('x' + }}" does not compile (expr-lang v1.17.8: `},
		{"${{ normalizeImage('x') ", "selector-template-unclosed", `expected "}}" but reached end of template`},
		{"${{ normalizeImage(request.body.count) }}", "selector-expression-error-on-sample", `fails on the sample request`},
		{"${{ 42 }}", "selector-value-not-string", `evaluates to 42 (float64) on the sample request, kargo needs a string`},
		{"${{ request.body.count > 1 }}", "selector-value-not-string", `evaluates to true (bool)`},
		{"${{ request.body.tags }}", "selector-value-not-string", `evaluates to ["v1"] ([]interface {})`},
		{"${{ undefinedFunction('x') }}", "selector-expression-error-on-sample", `fails on the sample request`},
	} {
		r := runOn(t, receiverYAML("ClusterConfig", "custom", "", c.value), "--requests", sampleDir(t))
		if !reflect.DeepEqual(codes(r), []string{valuePath + " " + c.code}) || !strings.Contains(r.Findings[0].Message, c.message) {
			t.Errorf("%s: findings %+v", c.value, r.Findings)
		}
	}
}

func TestATemplateEvaluatesAsKargoDoes(t *testing.T) {
	for _, c := range []struct{ value, result string }{
		{"${{ normalizeGit(request.body.repository.url) }}", `"https://git.example/acme/app.git"`},
		{"${{ quote(42) }}", `"42"`},
		{"${{ quote(request.params('count')) }}", `"3"`},
		{"git.example/${% request.params('ref') %}/${{ params.kind }}", `"git.example/main/image"`},
		{"plain 42", `"plain 42"`}, // no delimiter: not evaluated, not counted
	} {
		r := runOn(t, receiverYAML("ClusterConfig", "custom", "", c.value), "--requests", sampleDir(t))
		if len(r.Findings) != 0 || (c.value == "plain 42") != (len(r.Evaluations) == 0) {
			t.Errorf("%s: findings %+v evaluations %+v", c.value, r.Findings, r.Evaluations)
			continue
		}
		if len(r.Evaluations) == 1 && r.Evaluations[0].Result != c.result {
			t.Errorf("%s: result %s, want %s", c.value, r.Evaluations[0].Result, c.result)
		}
	}
}

func TestTheEnvIsShapedLikeNewBaseEnv(t *testing.T) {
	when := "request.header('X-Event') == 'push' && request.headers('x-multi') == ['a', 'b'] && request.params('ref') == 'main' && params.kind == 'image' && request.body.count == 7"
	r := runOn(t, receiverYAML("ProjectConfig", "custom", when, "${{ normalizeChart('oci://charts.example/app') }}"), "--requests", sampleDir(t))
	if len(r.Findings) != 0 || len(r.Evaluations) != 2 || r.Evaluations[1].Result != "true" {
		t.Fatalf("findings %+v evaluations %+v", r.Findings, r.Evaluations)
	}
	if r.Counted["when expressions evaluated"] != 1 || r.Counted["selector expressions evaluated"] != 1 || r.Counted["receivers"] != 2 || r.Counted["generic receivers"] != 1 {
		t.Fatalf("counted %v", r.Counted)
	}
}

func TestAReceiverWithoutASampleIsCompiledNotEvaluated(t *testing.T) {
	r := runOn(t, receiverYAML("ProjectConfig", "no-sample", "request.header('x') == 'y'", "${{ normalizeGit(request.body.url) }}"), "--requests", sampleDir(t))
	if len(r.Findings) != 0 || len(r.Evaluations) != 0 || r.Counted["when expressions compiled"] != 1 || r.Counted["selector expressions compiled"] != 1 ||
		r.Counted["when expressions evaluated"] != 0 || r.Counted["generic receivers without a sample request (compiled, not evaluated)"] != 1 {
		t.Fatalf("findings %+v counted %v", r.Findings, r.Counted)
	}
	broken := runOn(t, receiverYAML("ProjectConfig", "no-sample", "request.header('x') ==", "${{ normalizeGit(request.body.url) }}"))
	if !reflect.DeepEqual(codes(broken), []string{whenPath + " when-expression-does-not-compile"}) {
		t.Fatalf("findings %v", codes(broken))
	}
}

func TestSelectorsAreRunEvenWhenTheSampleDoesNotMatch(t *testing.T) {
	unmatched := runOn(t, receiverYAML("ProjectConfig", "custom", "request.header('x-event') == 'tag'", "${{ 1 }}"), "--requests", sampleDir(t))
	if !reflect.DeepEqual(codes(unmatched), []string{valuePath + " selector-value-not-string"}) || unmatched.Counted["when expressions false on the sample (selectors evaluated anyway)"] != 1 {
		t.Fatalf("findings %v counted %v", codes(unmatched), unmatched.Counted)
	}
}

func TestNameAndLabelSelectorValuesAreEvaluatedToo(t *testing.T) {
	extra := "                name: ${{ 1 }}\n                labelSelector:\n                  matchLabels:\n                    a/b: ${{ request.params('ref') }}\n                  matchExpressions:\n                    - key: k\n                      operator: In\n                      values: ['${{ true }}']\n"
	r := runOn(t, receiverYAML("ClusterConfig", "custom", "", "${{ 'x' }}", extra), "--requests", sampleDir(t))
	tsc := "/spec/webhookReceivers/1/generic/actions/0/targetSelectionCriteria/0"
	want := []string{tsc + "/labelSelector/matchExpressions/0/values/0 selector-value-not-string", tsc + "/name selector-value-not-string"}
	if !reflect.DeepEqual(codes(r), want) || len(r.Evaluations) != 2 || r.Evaluations[0].Path != tsc+"/indexSelector/matchIndices/0/value" || r.Evaluations[1].Path != tsc+"/labelSelector/matchLabels/a~1b" {
		t.Fatalf("findings %v evaluations %+v", codes(r), r.Evaluations)
	}
}

func TestOtherObjectsAndReceiversAreSkipped(t *testing.T) {
	other := strings.Replace(receiverYAML("ProjectConfig", "custom", "request.header('X' ==", "${{ 'x' }}"), "kargo.akuity.io/v1alpha1", "example.io/v1", 1)
	r := runOn(t, other)
	if len(r.Findings) != 0 || r.Counted["receivers"] != 0 || r.Counted["objects"] != 1 {
		t.Fatalf("findings %+v counted %v", r.Findings, r.Counted)
	}
}

func TestFlagsAndValues(t *testing.T) {
	var stdout, stderr strings.Builder
	if code := run([]string{}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "exactly one of") {
		t.Fatalf("exit %d stderr %q", code, stderr.String())
	}
	if r := runOn(t, "kind: A\n", "--requests", filepath.Join(t.TempDir(), "missing")); r.code != 2 || !strings.Contains(r.stderr, "is not a readable directory") {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
	bad := filepath.Join(t.TempDir(), "requests")
	writeFile(t, bad, "x.json", "[]")
	if r := runOn(t, "kind: A\n", "--requests", bad); r.code != 2 || !strings.Contains(r.stderr, "x.json is not a sample request") {
		t.Fatalf("exit %d stderr %q", r.code, r.stderr)
	}
	values := writeFile(t, t.TempDir(), "values.json", `[{"kind":"cron","value":"@weekly","accepted":true}]`)
	stdout.Reset()
	if code := run([]string{"--values", values}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), `"findings": []`) {
		t.Fatalf("exit %d stdout %s", code, stdout.String())
	}
}

func TestTheSampleBodyIsAnyJSONValue(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "requests")
	writeFile(t, dir, "custom.json", `{"body": "a string"}`)
	r := runOn(t, receiverYAML("ProjectConfig", "custom", "request.body == 'a string'", "${{ 'x' }}"), "--requests", dir)
	if len(r.Findings) != 0 || len(r.Evaluations) != 2 || r.Evaluations[1].Result != "true" {
		t.Fatalf("findings %+v evaluations %+v", r.Findings, r.Evaluations)
	}
	// no body: nil, as newBaseEnv leaves an empty body
	writeFile(t, dir, "custom.json", `{}`)
	if r := runOn(t, receiverYAML("ProjectConfig", "custom", "request.body == nil", "${{ 'x' }}"), "--requests", dir); len(r.Findings) != 0 || r.Evaluations[1].Result != "true" {
		t.Fatalf("findings %+v evaluations %+v", r.Findings, r.Evaluations)
	}
}

func TestOutputIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	manifest := receiverYAML("ClusterConfig", "custom", "request.header('X' ==", "${{ 1 }}")
	writeFile(t, dir, "b.yaml", manifest)
	writeFile(t, dir, "a.yml", manifest)
	var first, second, stderr strings.Builder
	req := sampleDir(t)
	if code := run([]string{"--manifests", dir, "--requests", req}, &first, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	run([]string{"--manifests", dir, "--requests", req}, &second, &stderr)
	if first.String() != second.String() || strings.Index(first.String(), `"source": "a.yml"`) > strings.Index(first.String(), `"source": "b.yaml"`) {
		t.Fatal("two runs differ or findings are not sorted by source")
	}
}

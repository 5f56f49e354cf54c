package main

import (
	"reflect"
	"testing"
)

func TestSplitTemplateFindsExpressionsAsNextExpressionDoes(t *testing.T) {
	parts, err := splitTemplate("a${% x %}b${{ y }}c}}")
	want := []templatePart{{"a", " x "}, {"b", " y "}, {"c}}", ""}}
	if err != nil || !reflect.DeepEqual(parts, want) {
		t.Fatalf("parts %q err %v", parts, err)
	}
	// the first end of the pair that opened: "%}" inside ${{ }} does not close it
	parts, err = splitTemplate("${{ '%}' }}")
	if err != nil || !reflect.DeepEqual(parts, []templatePart{{"", " '%}' "}, {"", ""}}) {
		t.Fatalf("parts %q err %v", parts, err)
	}
	if _, err := splitTemplate("x ${% y }}"); err == nil || err.Error() != `unclosed expression: expected "%}" but reached end of template` {
		t.Fatalf("err %v", err)
	}
}

func TestTemplateValueConvertsAsEvaluateTemplateDoes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want any
	}{
		{`"true"`, "true"},
		{"\"a\"\n", "a\n"},
		{"1", float64(1)},
		{"true", true},
		{`{"a":1}`, map[string]any{"a": float64(1)}},
		{"null", nil},
		{"ghcr.io/acme/app", "ghcr.io/acme/app"},
		{"text\n", "text\n"},
	} {
		if got := templateValue(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %#v, want %#v", c.in, got, c.want)
		}
	}
}

func TestTemplateFunctionsAreThoseOfEvaluateTemplate(t *testing.T) {
	env := map[string]any{"m": map[string]any{"a": "b"}}
	for expression, want := range map[string]string{
		`quote("x")`:       `"x"`,
		`quote(1)`:         `"1"`,
		`unsafeQuote("x")`: `""x""`, // json.Marshal then quotes around it: EvaluateTemplate strips the outer pair
		`asJSON(m)`:        "\"{\n  \"a\": \"b\"\n}\n\"",
		`asYAML(m)`:        "\"a: b\n\"",
	} {
		got, err := runTemplateExpression(expression, env)
		if err != nil || got != want {
			t.Errorf("%s: %q err %v, want %q", expression, got, err, want)
		}
	}
	// compiled without the env, as whenExpressionMet does: an unknown name is a run-time error
	if err := compileWhen("nope(1)"); err != nil {
		t.Errorf("compile %v", err)
	}
	if _, _, err := runWhen("nope(1)", map[string]any{}); err == nil {
		t.Error("no run-time error")
	}
}

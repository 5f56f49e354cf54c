package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func ask(t *testing.T, op, value, env string) Answer {
	t.Helper()
	raw, _ := json.Marshal(Request{Op: op, Value: value, Env: env})
	var a Answer
	if err := json.Unmarshal(handle(raw), &a); err != nil {
		t.Fatalf("answer does not decode: %v", err)
	}
	return a
}

// Each parser accepts a value its controller accepts and refuses, in its own words, one it
// refuses: the cases issue 32 found accepted by the library and broken live among them.
func TestVerdicts(t *testing.T) {
	cases := []struct {
		op, value, env string
		refusal        string // "" when Go accepts the value
	}{
		{"timezone", "Europe/Berlin", "", ""},
		{"timezone", "europe/berlin", "", "unknown time zone europe/berlin"},
		{"regexp", `^v\d+$`, "", ""},
		{"regexp", `^v\d+\Z`, "", "invalid escape sequence"},
		{"semver", ">=1.0.0, <2.0.0", "", ""},
		{"semver", ">=1.0.0 && <2.0.0", "", "improper constraint"},
		{"cron", "0 22 * * 1-5", "", ""},
		{"cron", "@weekly", "", "parser does not accept descriptors"},
		{"cron", "@weekly", "descriptor", ""},
		{"cron", "@every 1h", "descriptor", "constant delay"},
		{"cron", "0 22 * * 7", "", "above maximum"},
		{"glob", "charts/**/*.yaml", "", ""},
		{"glob", "charts/[a", "", "syntax error in pattern"},
		{"kargo-when", "request.header('X-Event') == 'push'", "", ""},
		{"kargo-when", "request.header('X-Event') ==", "", "unexpected token EOF"},
		{"kargo-template", "v-${{ quote(imageFrom('ghcr.io/acme/api').Tag) }}", "promotion", ""},
		{"kargo-template", "${{ imageFrom(1) }}", "promotion", "cannot use int as argument"},
		{"kargo-template", "${{ ctx.stage", "verification", "unclosed expression"},
		{"kargo-template", "${{ status('x') }}", "verification", ""}, // no status(): an unknown name is any without an env
		{"rollouts-condition", "len(result) == 0 || result[0] < 0.05", "vector", ""},
		{"rollouts-condition", "result < 0.05", "vector", "mismatched types []float64 and float64"},
		{"rollouts-condition", "result[0] < 0.05", "scalar", "is undefined"},
		{"rollouts-condition", "result[0]", "vector", "does not evaluate to a bool"},
		{"rollouts-condition", "result == 'UP'", "any", ""},
	}
	for _, c := range cases {
		a := ask(t, c.op, c.value, c.env)
		switch {
		case c.refusal == "" && a.Error != "":
			t.Errorf("%s %q (%s): refused (%s), want accepted", c.op, c.value, c.env, a.Error)
		case c.refusal != "" && !strings.Contains(a.Error, c.refusal):
			t.Errorf("%s %q (%s): got %q, want a refusal containing %q", c.op, c.value, c.env, a.Error, c.refusal)
		}
	}
}

func TestCronSpec(t *testing.T) {
	a := ask(t, "cron", "*/20 9-10 ? jan,dec mon-fri", "")
	if a.Cron == nil {
		t.Fatalf("no schedule: %v", a.Error)
	}
	s := a.Cron
	if got, want := len(s.Minutes), 3; got != want || s.Minutes[2] != 40 {
		t.Errorf("minutes %v", s.Minutes)
	}
	if !s.DayOfMonthStar || s.DayOfWeekStar || len(s.Months) != 2 || s.Months[1] != 12 || len(s.DaysOfWeek) != 5 {
		t.Errorf("spec %+v", s)
	}
	if s.FiresNever {
		t.Errorf("fires")
	}
	if never := ask(t, "cron", "0 0 30 2 *", ""); never.Cron == nil || !never.Cron.FiresNever {
		t.Errorf("February 30 fires: %+v", never)
	}
}

func TestBadRequests(t *testing.T) {
	if a := ask(t, "nope", "x", ""); !strings.Contains(a.Error, "unknown op") {
		t.Errorf("got %q", a.Error)
	}
	if a := ask(t, "rollouts-condition", "true", "matrix"); !strings.Contains(a.Error, "unknown result type") {
		t.Errorf("got %q", a.Error)
	}
	if got := string(handle([]byte("{"))); !strings.Contains(got, "bad request") {
		t.Errorf("got %s", got)
	}
}

func TestCronFieldErrors(t *testing.T) {
	a := ask(t, "cron", "60 24 * * 7", "")
	if len(a.CronFields) != 3 || a.CronFields[0].Field != 0 || a.CronFields[1].Field != 1 || a.CronFields[2].Field != 4 {
		t.Fatalf("fields %+v", a.CronFields)
	}
	if !strings.Contains(a.CronFields[2].Error, "above maximum (6)") {
		t.Errorf("day-of-week: %q", a.CronFields[2].Error)
	}
	if a := ask(t, "cron", "* * *", ""); a.CronFields != nil || !strings.Contains(a.Error, "expected exactly 5 fields") {
		t.Errorf("three fields: %+v", a)
	}
}

func TestWebResult(t *testing.T) {
	for _, ok := range []string{"result", "result == 'UP'", "result.status == 'UP' && isNil(result.error)", "asInt(result) > 3"} {
		if a := ask(t, "rollouts-condition", ok, "any"); a.Error != "" {
			t.Errorf("%q refused: %s", ok, a.Error)
		}
	}
	if a := ask(t, "rollouts-condition", "reslt == 'UP'", "any"); !strings.Contains(a.Error, "unknown name reslt") {
		t.Errorf("a misspelled name compiles: %q", a.Error)
	}
}

func TestJSONPath(t *testing.T) {
	for _, ok := range []string{"{$}", "{$.status}", "{.items[0].name}", "{$.checks[?(@.name=='db')].status}"} {
		if a := ask(t, "jsonpath", ok, ""); a.Error != "" {
			t.Errorf("%q refused: %s", ok, a.Error)
		}
	}
	if a := ask(t, "jsonpath", "{$.status", ""); !strings.Contains(a.Error, "unclosed action") {
		t.Errorf("unclosed: %q", a.Error)
	}
}

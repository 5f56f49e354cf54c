package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValues(t *testing.T) {
	values := []Value{
		{Kind: "regex", Value: `^v1\.\d+$`, Accepted: true},
		{Kind: "regex", Value: `^v1(\.`, Accepted: true},
		{Kind: "regex", Value: `(?<name>x)`, Accepted: false},
		{Kind: "semver", Value: ">=1.2.0 <2.0.0", Accepted: true},
		{Kind: "semver", Value: "^1.x || ~2.3", Accepted: true},
		{Kind: "semver", Value: ">=1.2.0 !! <2", Accepted: true},
		{Kind: "duration", Value: "1h30m", Accepted: true},
		{Kind: "duration", Value: "5 minutes", Accepted: true},
		{Kind: "duration", Value: "1d", Accepted: false},
		{Kind: "cron", Value: "* * * * *", Accepted: true},
	}
	r := newReport()
	checkValues("values.json", values, r)
	r.Sort()
	var got []string
	for _, f := range r.Findings {
		got = append(got, f.Path+" "+f.Code)
	}
	want := "/1/value value-refused-upstream,/5/value value-refused-upstream,/7/value value-refused-upstream"
	if strings.Join(got, ",") != want {
		t.Fatalf("findings %q, want %q", strings.Join(got, ","), want)
	}
	if !strings.Contains(r.Findings[0].Message, `regex "^v1(\\."`) || !strings.Contains(r.Findings[0].Upstream, "regexp.Compile") {
		t.Fatalf("finding %+v", r.Findings[0])
	}
	if !strings.HasSuffix(r.Findings[1].Upstream, "semver/v3.NewConstraint") || !strings.HasSuffix(r.Findings[2].Upstream, "meta/v1.Duration.UnmarshalJSON") {
		t.Fatalf("upstreams %q %q", r.Findings[1].Upstream, r.Findings[2].Upstream)
	}
	for key, want := range map[string]int{
		"values/regex/library-refuses-go-accepts": 1, "values/regex/agree": 1, "values/semver/agree": 2,
		"values/duration/agree": 2, "values/cron (checked by another module)": 1,
	} {
		if r.Counted[key] != want {
			t.Errorf("counted[%q] = %d, want %d (%v)", key, r.Counted[key], want, r.Counted)
		}
	}
}

func TestUnknownValueKindIsAnInputError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "values.json")
	if err := os.WriteFile(file, []byte(`[{"kind":"glob","value":"*","accepted":true}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	if code := run([]string{"--values", file}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `kind "glob"`) {
		t.Fatalf("exit %d stderr %q", code, stderr.String())
	}
}

// The upstream strings name the versions go.mod really links.
func TestParserVersionsMatchGoMod(t *testing.T) {
	data, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, mod := range []string{semverModule, apimachineryModule, rolloutsModule} {
		if !strings.Contains(string(data), strings.Replace(mod, "@", " ", 1)) {
			t.Errorf("go.mod does not require %s", mod)
		}
	}
}

package argocd

import (
	"testing"
)

func TestCronVerdictIsSyncWindowParser(t *testing.T) {
	for schedule, ok := range map[string]bool{
		"0 0 20 12 *": true, "*/15 * * * 1-5": true, "0 0 * * 0": true,
		"@weekly": false, "@daily": false, "0 0 * * 7": false, "0 0 0 * * *": false, "": false,
	} {
		if err := cronVerdict(schedule); (err == nil) != ok {
			t.Errorf("%q: argo cd verdict %v, want accepted=%v", schedule, err, ok)
		}
	}
}

func TestValuesReportsWhatTheLibraryAcceptsAndArgoCDRefuses(t *testing.T) {
	r := NewReport()
	CheckValues(r, "values.json", []Value{
		{Kind: "cron", Value: "@weekly", Accepted: true},
		{Kind: "cron", Value: "0 0 20 12 *", Accepted: true},
		{Kind: "cron", Value: "0 0 * * 0", Accepted: false},
		{Kind: "semver", Value: "^1.2", Accepted: true},
	})
	f := onlyFinding(t, r, "value-refused-upstream")
	if f.Path != "/0/value" || f.Source != "values.json" {
		t.Errorf("finding at %s %s", f.Source, f.Path)
	}
	mustContain(t, f.Message, `"@weekly"`, "argo cd refuses it")
	if r.Counted["cronValues"] != 3 || r.Counted["cronValuesRefusedByLibraryOnly"] != 1 || r.Counted["valuesNotArgoCD"] != 1 {
		t.Errorf("counted %v", r.Counted)
	}
}

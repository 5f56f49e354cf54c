package argocd

import (
	"fmt"

	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

// Value is one entry of a --values file: a value the library judged, and its verdict.
type Value = suite.Value

// cronVerdict is Argo CD's verdict on a sync-window schedule: SyncWindow.Validate parses it with
// the parser every sync-window evaluation uses (cron.NewParser(Minute|Hour|Dom|Month|Dow), no
// Descriptor, so no @weekly, and Dow 0-6, so no 7). Kind and duration are fixed valid values so
// only the schedule can fail.
func cronVerdict(schedule string) error {
	w := v1alpha1.SyncWindow{Kind: "deny", Schedule: schedule, Duration: "1h", TimeZone: "UTC"}
	return w.Validate()
}

// CheckValues compares the library's verdicts with Argo CD's. Only kind "cron" is Argo CD's
// (sync-window schedules); regex, semver and duration belong to the Kargo/Rollouts module.
func CheckValues(r *Report, file string, values []Value) {
	source := &Object{Source: file, Kind: "Value"}
	decidedBy := upstream("pkg/apis/application/v1alpha1", "SyncWindow.Validate")
	for i, v := range values {
		if v.Kind != "cron" {
			r.count("valuesNotArgoCD", 1)
			continue
		}
		r.count("cronValues", 1)
		err := cronVerdict(v.Value)
		path := fmt.Sprintf("/%d/value", i)
		switch {
		case v.Accepted && err != nil:
			r.add(source, path, "value-refused-upstream",
				fmt.Sprintf("the library accepts sync-window schedule %q but argo cd refuses it: %s", v.Value, err), decidedBy)
		case !v.Accepted && err == nil:
			r.count("cronValuesRefusedByLibraryOnly", 1)
		}
	}
}

package main

import (
	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
)

// AppInstance is an Application Argo CD would have, with the object a finding about it goes on.
type AppInstance struct {
	App  v1alpha1.Application
	From *Object
	// Spec is the JSON pointer, within From, of the Application's spec.
	Spec string
}

func (a *AppInstance) label() string { return "application " + a.App.Name }

// applications are the Applications the manifests write. The ones ApplicationSets generate are
// not among them: Argo CD v3.5.1's applicationset packages do not compile with the only
// gitops-engine the module proxy serves (applicationset/utils imports util/argo/diff, which calls
// gitops-engine's diff.Diff/DiffArray without the context argument master added), and the
// generators are not re-implemented here. The ApplicationSets are counted as not generated.
func applications(r *Report, fleet *Fleet) []*AppInstance {
	r.count("applicationSetsNotGenerated", len(fleet.ApplicationSets))
	var apps []*AppInstance
	for _, d := range fleet.Applications {
		r.count("applications", 1)
		apps = append(apps, &AppInstance{App: d.Value, From: d.Object, Spec: "/spec"})
	}
	return apps
}

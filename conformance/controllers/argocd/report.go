package argocd

import (
	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

// argoCD is the module every finding's upstream function comes from; the pinned version, so a
// reader can open exactly the code that decided.
const argoCD = "github.com/argoproj/argo-cd/v3@v3.5.1"

// upstream names an Argo CD function in the form the protocol asks for.
func upstream(pkg, function string) string {
	return argoCD + " github.com/argoproj/argo-cd/v3/" + pkg + "." + function
}

// Finding and the report shape of CONFORMANCE-PROTOCOL.md are the suite's.
type Finding = suite.Finding

// Report is the protocol's report, counting and adding the way this package's checks do.
type Report struct{ suite.Report }

// NewReport is the empty report of module "argocd".
func NewReport() *Report {
	return &Report{*suite.NewReport("argocd")}
}

func (r *Report) count(what string, n int) { r.Counted[what] += n }

// add records a finding about obj; obj carries source, apiVersion, kind, name and namespace.
func (r *Report) add(obj *Object, path, code, message, decidedBy string) {
	r.Add(obj.Finding(path, code, decidedBy, "%s", message))
}

package kargo

import (
	"fmt"
	"io"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

// kargoModule is the module every finding's upstream function comes from, at the pinned version.
const kargoModule = "github.com/akuity/kargo@v1.11.2"

// upstream names a Kargo function in the form the protocol asks for: the module at its version,
// then the package path and the function (Type.Method for a method).
func upstream(pkg, function string) string {
	return fmt.Sprintf("%s github.com/akuity/kargo/%s.%s", kargoModule, pkg, function)
}

// Report is the protocol's report with what the receivers and promotions did, finding or not.
type Report struct {
	suite.Report
	// Receivers is what every webhook receiver answered to its sample request.
	Receivers []ReceiverAnswer `json:"receivers,omitempty"`
	// Promotions is every promotion Kargo's engine ran.
	Promotions []PromotionRun `json:"promotions,omitempty"`
	// Releases is when each release reached each Stage over simulated time.
	Releases []ReleaseRun `json:"releases,omitempty"`
	// FleetChange is what Argo CD does with each Application a fleet change leaves without its path.
	FleetChange []FleetChange `json:"fleetChange,omitempty"`
}

// NewReport is the empty report of module "kargo".
func NewReport() *Report {
	return &Report{Report: *suite.NewReport("kargo")}
}

func (r *Report) count(what string, n int) { r.Counted[what] += n }

// Merge adds another report's counts, findings and runs to this one.
func (r *Report) Merge(o *Report) {
	for k, v := range o.Counted {
		r.Counted[k] += v
	}
	r.Findings = append(r.Findings, o.Findings...)
	r.Receivers = append(r.Receivers, o.Receivers...)
	r.Promotions = append(r.Promotions, o.Promotions...)
	r.Releases = append(r.Releases, o.Releases...)
	r.FleetChange = append(r.FleetChange, o.FleetChange...)
}

func (r *Report) add(obj *suite.Object, path, code, decidedBy, format string, args ...any) {
	r.Add(obj.Finding(path, code, decidedBy, format, args...))
}

// Write sorts the findings and prints the report (receivers, promotions and releases keep the
// order they ran in, which is the order of the manifests).
func (r *Report) Write(w io.Writer) error {
	r.Sort()
	return suite.Encode(w, r)
}

package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"runtime"

	"github.com/Masterminds/semver/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"
)

// The versions of the parsers the module links; values_test.go checks them against go.mod.
const (
	semverModule       = "github.com/Masterminds/semver/v3@v3.4.0"
	apimachineryModule = "k8s.io/apimachinery@v0.34.1"
)

// goParser is the Go function the controller parses one kind of value with.
type goParser struct {
	upstream string
	where    string
	parse    func(string) error
}

var parsers = map[string]goParser{
	// Kargo v1.11.2 pkg/image/tag_based_selector.go compileRegexes (allowTagsRegexes,
	// ignoreTagsRegexes); pkg/subscription/image.go ValidateSubscription does not compile them, so
	// the warehouse is admitted and fails at discovery.
	"regex": {"std@" + runtime.Version() + " regexp.Compile", "the warehouse is admitted, then its image discovery fails (kargo pkg/image compileRegexes)", func(s string) error {
		_, err := regexp.Compile(s)
		return err
	}},
	// Kargo v1.11.2 pkg/validation/validation.go SemverConstraint (called by pkg/subscription
	// image.go, chart.go, git.go ValidateSubscription) and pkg/image/semver_selector.go newSemverSelector.
	"semver": {semverModule + " github.com/Masterminds/semver/v3.NewConstraint", "kargo's webhook refuses the warehouse (pkg/validation SemverConstraint)", func(s string) error {
		_, err := semver.NewConstraint(s)
		return err
	}},
	// Kargo's metav1.Duration fields (e.g. a step's retry.timeout, a warehouse's interval) decode
	// through Duration.UnmarshalJSON, which calls time.ParseDuration.
	"duration": {apimachineryModule + " k8s.io/apimachinery/pkg/apis/meta/v1.Duration.UnmarshalJSON", "kargo cannot decode the object into its go type (metav1.Duration), so it never acts on it", func(s string) error {
		quoted, _ := json.Marshal(s)
		var d metav1.Duration
		return json.Unmarshal(quoted, &d)
	}},
}

// notHere are kinds another conformance module checks.
var notHere = map[string]bool{"cron": true}

// readValues reads a --values file and refuses a kind no conformance module checks.
func readValues(file string) ([]Value, error) {
	values, err := suite.ReadValues(file)
	if err != nil {
		return nil, err
	}
	for i, v := range values {
		if _, ok := parsers[v.Kind]; !ok && !notHere[v.Kind] {
			return nil, fmt.Errorf("%s: entry %d has kind %q; expected one of cron, regex, semver, duration", file, i, v.Kind)
		}
	}
	return values, nil
}

// checkValues compares the library's verdicts with the Go parsers'. A value the library accepts
// and Go refuses is a finding (it breaks live); the other direction is only counted.
func checkValues(source string, values []Value, r *Report) {
	for i, v := range values {
		if notHere[v.Kind] {
			r.Count(fmt.Sprintf("values/%s (checked by another module)", v.Kind))
			continue
		}
		p := parsers[v.Kind]
		r.Count("values/" + v.Kind)
		err := p.parse(v.Value)
		switch {
		case v.Accepted && err != nil:
			r.Count(fmt.Sprintf("values/%s/library-accepts-go-refuses", v.Kind))
			r.Add(Finding{Source: source, Path: fmt.Sprintf("/%d/value", i), Code: "value-refused-upstream", Upstream: p.upstream,
				Message: fmt.Sprintf("the library accepts %s %q but %s refuses it (%v): %s", v.Kind, v.Value, p.upstream, err, p.where)})
		case !v.Accepted && err == nil:
			r.Count(fmt.Sprintf("values/%s/library-refuses-go-accepts", v.Kind))
		default:
			r.Count(fmt.Sprintf("values/%s/agree", v.Kind))
		}
	}
}

package main

import (
	"regexp"
	"time"
	// Go's zone database inside the module: time.LoadLocation never reads the host's, so a zone
	// is decided the same on every machine (and case-sensitively, as on the controllers' Linux).
	_ "time/tzdata"

	"github.com/Masterminds/semver/v3"
	"github.com/bmatcuk/doublestar/v4"
	"k8s.io/client-go/util/jsonpath"
)

// regexpAnswer: Go's regexp.Compile, which Kargo v1.11.2 calls on tag filters
// (pkg/image/tag_based_selector.go newTagBasedSelector, pkg/controller/git/commit/
// tag_based_selector.go) and on regex: path filters (pkg/pattern/matcher.go NewRegexpMatcher).
func regexpAnswer(r Request) Answer {
	if _, err := regexp.Compile(r.Value); err != nil {
		return Answer{Error: err.Error()}
	}
	return Answer{}
}

// semverAnswer: Masterminds/semver v3.4.0 NewConstraint, as Kargo v1.11.2's webhook
// (pkg/validation/validation.go SemverConstraint) and its image, chart and Git selectors call it.
func semverAnswer(r Request) Answer {
	if _, err := semver.NewConstraint(r.Value); err != nil {
		return Answer{Error: err.Error()}
	}
	return Answer{}
}

// timezoneAnswer: time.LoadLocation, which Argo CD v3.5.1 calls on a sync window's timeZone
// (pkg/apis/application/v1alpha1/types.go SyncWindow.Validate, scheduleOffsetByTimeZone) and
// expr-lang's timezone() builtin calls in Kargo's freeze steps.
func timezoneAnswer(r Request) Answer {
	if _, err := time.LoadLocation(r.Value); err != nil {
		return Answer{Error: err.Error()}
	}
	return Answer{}
}

// globAnswer: doublestar v4.9.2 ValidatePattern, which Kargo v1.11.2 calls on a glob: path
// filter (pkg/pattern/matcher.go NewGlobPattern, which then returns doublestar.ErrBadPattern).
func globAnswer(r Request) Answer {
	if !doublestar.ValidatePattern(r.Value) {
		return Answer{Error: doublestar.ErrBadPattern.Error()}
	}
	return Answer{}
}

// jsonPathAnswer: k8s.io/client-go/util/jsonpath (v0.34.1, Argo Rollouts v1.9.1's pin) Parse,
// which Rollouts' web metric calls on jsonPath (metricproviders/webmetric/webmetric.go
// NewWebMetricJsonParser: jsonpath.New("metrics").Parse(jsonPath)).
func jsonPathAnswer(r Request) Answer {
	if err := jsonpath.New("metrics").Parse(r.Value); err != nil {
		return Answer{Error: err.Error()}
	}
	return Answer{}
}

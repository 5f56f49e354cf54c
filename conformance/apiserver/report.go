package main

import "github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite"

// The manifests reader and the report shape of CONFORMANCE-PROTOCOL.md are the suite's.
type (
	Object  = suite.Object
	Finding = suite.Finding
	Report  = suite.Report
)

func newReport() *Report { return suite.NewReport("apiserver") }

func readManifests(dir string) ([]Object, error) { return suite.ReadManifests(dir) }

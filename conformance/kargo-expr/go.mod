module github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/kargo-expr

go 1.26

require (
	github.com/expr-lang/expr v1.17.8
	go.yaml.in/yaml/v3 v3.0.4
)

require github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite v0.0.0

require (
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	k8s.io/apimachinery v0.34.1 // indirect
	sigs.k8s.io/json v0.0.0-20241014173422-cfa47c3a1cc8 // indirect
	sigs.k8s.io/yaml v1.6.0 // indirect
)

replace github.com/cdk8s-gitops-platform/cdk8s-gitops-platform/conformance/lib/suite => ../lib/suite

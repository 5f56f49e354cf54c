module example.com/my-platform

go 1.26.0

require (
	github.com/aws/jsii-runtime-go v1.142.0
	github.com/cdk8s-gitops-platform/cdk8s-gitops-platform-go/cdk8sgitopsplatform v0.1.0
	github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 v2.70.0
)

require (
	github.com/Masterminds/semver/v3 v3.5.0 // indirect
	github.com/aws/constructs-go/constructs/v10 v10.4.2 // indirect
	github.com/cdk8s-team/cdk8s-plus-go/cdk8splus28/v2 v2.5.6 // indirect
	github.com/fatih/color v1.19.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/yuin/goldmark v1.7.16 // indirect
	golang.org/x/lint v0.0.0-20241112194109-818c5a804067 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/telemetry v0.0.0-20261009151841-97e8ea77aa2a // indirect
	golang.org/x/tools v0.52.0 // indirect
	golang.org/x/tools/cmd/godoc v0.1.0-deprecated // indirect
	golang.org/x/tools/godoc v0.1.0-deprecated // indirect
)

// Until the module is published: the module `npx projen package:go` writes (dist/go), and the
// binding of cdk8s it builds beside it (.jsii-deps/go: the Go module proxy this project's machines
// reach refuses github.com/cdk8s-team/cdk8s-core-go).
replace github.com/cdk8s-gitops-platform/cdk8s-gitops-platform-go/cdk8sgitopsplatform => ../../dist/go/cdk8sgitopsplatform

replace github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2 => ../../.jsii-deps/go/cdk8s

//go:build tools

// Package tools pins the upstream commands this module builds for the e2e suite: Argo CD (one
// binary; ARGOCD_BINARY_NAME picks the component) and kwok (fake nodes and pod lifecycle). Both
// are built on the Kubernetes libraries v0.36.1, as the conformance suite's Argo CD module is, so
// one Go build cache serves both.
package tools

import (
	_ "github.com/argoproj/argo-cd/v3/cmd"
	_ "sigs.k8s.io/kwok/cmd/kwok"
)

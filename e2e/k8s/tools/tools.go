//go:build tools

// Package tools pins the upstream commands this module builds for the e2e suite, all on the
// Kubernetes libraries v0.34.3: the control plane of every e2e cluster (kube-apiserver v1.34.3,
// its controller manager and scheduler), Kargo's control plane (controller, management
// controller, API server and webhooks in one binary; its own Kubernetes and controller-runtime
// versions: Kargo v1.11.2 does not compile against Argo CD's controller-runtime v0.24), the Argo
// Rollouts controller that runs Kargo's verifications, helm (renders Kargo's chart) and crane
// (pushes images to the local registry).
package tools

import (
	_ "github.com/akuity/kargo/cmd/controlplane"
	_ "github.com/argoproj/argo-rollouts/cmd/rollouts-controller"
	_ "github.com/google/go-containerregistry/cmd/crane"
	_ "go.etcd.io/etcd/server/v3"
	_ "helm.sh/helm/v3/cmd/helm"
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)

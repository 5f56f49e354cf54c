package main

import (
	"fmt"
	"os"

	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-gitops-platform/cdk8s-gitops-platform-go/cdk8sgitopsplatform"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
)

const caData = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg=="

func definePlatform(app cdk8s.App) {
	fleet := cdk8sgitopsplatform.NewClusterFleet(app, jsii.String("fleet"), &cdk8sgitopsplatform.ClusterFleetProps{
		Clusters: &[]*cdk8sgitopsplatform.ClusterOptions{
			{Name: jsii.String("aws-use1-dev-01"), Server: jsii.String("https://dev-01.eks.example.com"),
				Provider: cdk8sgitopsplatform.CloudProvider_AWS, Region: jsii.String("us-east-1"), Tier: cdk8sgitopsplatform.Tier_DEV(),
				KubernetesVersion: jsii.String("1.31"),
				Auth: cdk8sgitopsplatform.ClusterAuth_Eks(&cdk8sgitopsplatform.EksAuthOptions{ClusterName: jsii.String("dev-01")},
					&cdk8sgitopsplatform.ClusterTlsOptions{CaData: jsii.String(caData)})},
			{Name: jsii.String("aws-use1-prod-01"), Server: jsii.String("https://prod-01.eks.example.com"),
				Provider: cdk8sgitopsplatform.CloudProvider_AWS, Region: jsii.String("us-east-1"), Tier: cdk8sgitopsplatform.Tier_PROD(),
				KubernetesVersion: jsii.String("1.31"),
				Auth: cdk8sgitopsplatform.ClusterAuth_Eks(&cdk8sgitopsplatform.EksAuthOptions{ClusterName: jsii.String("prod-01")},
					&cdk8sgitopsplatform.ClusterTlsOptions{CaData: jsii.String(caData)})},
		},
	})
	pipeline := cdk8sgitopsplatform.NewPromotionPipeline(app, jsii.String("standard"), &cdk8sgitopsplatform.PromotionPipelineProps{
		Stages: &[]*cdk8sgitopsplatform.PipelineStageOptions{
			{Name: jsii.String("dev"), Clusters: cdk8sgitopsplatform.ClusterSelector_Tier(cdk8sgitopsplatform.Tier_DEV()), Approval: cdk8sgitopsplatform.Approval_Automatic()},
			{Name: jsii.String("prod"), Clusters: cdk8sgitopsplatform.ClusterSelector_Tier(cdk8sgitopsplatform.Tier_PROD()), Approval: cdk8sgitopsplatform.Approval_Manual(nil)},
		},
	})
	cdk8sgitopsplatform.NewPlatformApp(app, jsii.String("checkout-api"), &cdk8sgitopsplatform.PlatformAppProps{
		Owner:    &cdk8sgitopsplatform.AppOwner{Team: jsii.String("payments"), Contact: jsii.String("#payments-oncall")},
		Fleet:    fleet,
		Pipeline: pipeline,
		Artifacts: &[]cdk8sgitopsplatform.Artifact{cdk8sgitopsplatform.Artifact_Image(jsii.String("ghcr.io/acme/checkout-api"),
			&cdk8sgitopsplatform.ImageArtifactOptions{Versioning: cdk8sgitopsplatform.Versioning_Semver(jsii.String("^1.0.0"), nil)})},
		Source: cdk8sgitopsplatform.ManifestSource_Helm(&cdk8sgitopsplatform.HelmSourceOptions{
			RepoUrl: jsii.String("https://github.com/acme/checkout-api.git"), Path: jsii.String("chart"),
			ValuesFiles: jsii.Strings("values-{stage}.yaml")}),
		ReleaseRepo: jsii.String("https://github.com/acme/releases.git"),
	})
}

func main() {
	// A wrong definition is reported as its message alone, not as a stack trace: jsii panics
	// with the library's error.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "synth failed: %v\n", r)
			os.Exit(1)
		}
	}()
	defer jsii.Close()
	app := cdk8sgitopsplatform.NewPlatformSynthApp(nil)
	definePlatform(app)
	app.Synth()
}

package com.example.platform;

import java.util.List;

import io.github.cdk8s_gitops_platform.AppOwner;
import io.github.cdk8s_gitops_platform.Approval;
import io.github.cdk8s_gitops_platform.Artifact;
import io.github.cdk8s_gitops_platform.ClusterAuth;
import io.github.cdk8s_gitops_platform.ClusterFleet;
import io.github.cdk8s_gitops_platform.ClusterFleetProps;
import io.github.cdk8s_gitops_platform.ClusterOptions;
import io.github.cdk8s_gitops_platform.ClusterSelector;
import io.github.cdk8s_gitops_platform.ClusterTlsOptions;
import io.github.cdk8s_gitops_platform.CloudProvider;
import io.github.cdk8s_gitops_platform.EksAuthOptions;
import io.github.cdk8s_gitops_platform.HelmSourceOptions;
import io.github.cdk8s_gitops_platform.ImageArtifactOptions;
import io.github.cdk8s_gitops_platform.ManifestSource;
import io.github.cdk8s_gitops_platform.PipelineStageOptions;
import io.github.cdk8s_gitops_platform.PlatformApp;
import io.github.cdk8s_gitops_platform.PlatformAppProps;
import io.github.cdk8s_gitops_platform.PlatformSynthApp;
import io.github.cdk8s_gitops_platform.PromotionPipeline;
import io.github.cdk8s_gitops_platform.PromotionPipelineProps;
import io.github.cdk8s_gitops_platform.Tier;
import io.github.cdk8s_gitops_platform.Versioning;
import org.cdk8s.App;

public final class Main {
    private static final String CA_DATA = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==";

    static void definePlatform(App app) {
        ClusterFleet fleet = new ClusterFleet(app, "fleet", ClusterFleetProps.builder()
            .clusters(List.of(
                ClusterOptions.builder().name("aws-use1-dev-01").server("https://dev-01.eks.example.com")
                    .provider(CloudProvider.AWS).region("us-east-1").tier(Tier.DEV).kubernetesVersion("1.31")
                    .auth(ClusterAuth.eks(EksAuthOptions.builder().clusterName("dev-01").build(),
                        ClusterTlsOptions.builder().caData(CA_DATA).build()))
                    .build(),
                ClusterOptions.builder().name("aws-use1-prod-01").server("https://prod-01.eks.example.com")
                    .provider(CloudProvider.AWS).region("us-east-1").tier(Tier.PROD).kubernetesVersion("1.31")
                    .auth(ClusterAuth.eks(EksAuthOptions.builder().clusterName("prod-01").build(),
                        ClusterTlsOptions.builder().caData(CA_DATA).build()))
                    .build()))
            .build());
        PromotionPipeline pipeline = new PromotionPipeline(app, "standard", PromotionPipelineProps.builder()
            .stages(List.of(
                PipelineStageOptions.builder().name("dev").clusters(ClusterSelector.tier(Tier.DEV)).approval(Approval.automatic()).build(),
                PipelineStageOptions.builder().name("prod").clusters(ClusterSelector.tier(Tier.PROD)).approval(Approval.manual()).build()))
            .build());
        new PlatformApp(app, "checkout-api", PlatformAppProps.builder()
            .owner(AppOwner.builder().team("payments").contact("#payments-oncall").build())
            .fleet(fleet)
            .pipeline(pipeline)
            .artifacts(List.of(Artifact.image("ghcr.io/acme/checkout-api",
                ImageArtifactOptions.builder().versioning(Versioning.semver("^1.0.0")).build())))
            .source(ManifestSource.helm(HelmSourceOptions.builder()
                .repoUrl("https://github.com/acme/checkout-api.git").path("chart").valuesFiles(List.of("values-{stage}.yaml")).build()))
            .releaseRepo("https://github.com/acme/releases.git")
            .build());
    }

    public static void main(String[] args) {
        // A wrong definition is reported as its message: jsii throws the library's error as a
        // RuntimeException. jsii's Java runtime appends the JavaScript stack trace to the
        // message unless the program runs with JSII_NOSTACK=1.
        try {
            PlatformSynthApp app = new PlatformSynthApp();
            definePlatform(app);
            app.synth();
        } catch (RuntimeException e) {
            System.err.println("synth failed: " + e.getMessage());
            System.exit(1);
        }
    }
}

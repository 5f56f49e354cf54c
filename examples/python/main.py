import sys

from cdk8s_gitops_platform import (
    Approval, AppOwner, Artifact, ClusterAuth, ClusterFleet, ClusterOptions, ClusterSelector, CloudProvider,
    EksAuthOptions, ManifestSource, PipelineStageOptions, PlatformApp, PlatformSynthApp, PromotionPipeline, Tier,
    Versioning,
)

CA_DATA = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg=="


def define_platform(app):
    fleet = ClusterFleet(app, "fleet", clusters=[
        ClusterOptions(name="aws-use1-dev-01", server="https://dev-01.eks.example.com", provider=CloudProvider.AWS,
                       region="us-east-1", tier=Tier.DEV, kubernetes_version="1.31",
                       auth=ClusterAuth.eks(EksAuthOptions(cluster_name="dev-01"), ca_data=CA_DATA)),
        ClusterOptions(name="aws-use1-prod-01", server="https://prod-01.eks.example.com", provider=CloudProvider.AWS,
                       region="us-east-1", tier=Tier.PROD, kubernetes_version="1.31",
                       auth=ClusterAuth.eks(EksAuthOptions(cluster_name="prod-01"), ca_data=CA_DATA)),
    ])
    pipeline = PromotionPipeline(app, "standard", stages=[
        PipelineStageOptions(name="dev", clusters=ClusterSelector.tier(Tier.DEV), approval=Approval.automatic()),
        PipelineStageOptions(name="prod", clusters=ClusterSelector.tier(Tier.PROD), approval=Approval.manual()),
    ])
    PlatformApp(app, "checkout-api",
        owner=AppOwner(team="payments", contact="#payments-oncall"),
        fleet=fleet,
        pipeline=pipeline,
        artifacts=[Artifact.image("ghcr.io/acme/checkout-api", versioning=Versioning.semver("^1.0.0"))],
        source=ManifestSource.helm(repo_url="https://github.com/acme/checkout-api.git", path="chart",
                                   values_files=["values-{stage}.yaml"]),
        release_repo="https://github.com/acme/releases.git",
    )


# A wrong definition is reported as its message alone: jsii raises the library's error as a
# RuntimeError whose text is the message, chained to the JavaScript stack trace.
try:
    app = PlatformSynthApp()
    define_platform(app)
    app.synth()
except RuntimeError as e:
    print(f"synth failed: {e}", file=sys.stderr)
    sys.exit(1)

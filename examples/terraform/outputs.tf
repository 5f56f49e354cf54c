output "clusters" {
  value = {
    "aws-use1-h100-prod-03" = {
      endpoint           = aws_eks_cluster.h100_prod_03.endpoint  # required, https URL of the API server
      provider           = "aws"                                  # required: aws | gcp | azure | oci | on-prem
      region             = "us-east-1"                            # required
      tier               = "prod"                                 # required: dev | staging | prod | a custom tier
      # production       = true                                   # custom tiers only, and required for them
      accelerator        = "nvidia-h100"                          # optional, default "none"
      accelerator_count  = 128                                    # optional, default 0
      kubernetes_version = "1.31"                                 # required where a Helm app is placed
      api_versions       = ["nvidia.com/v1"]                      # optional: APIs of CRDs installed on it
      labels             = { ring = "early" }                     # optional, string values
      ca_data            = aws_eks_cluster.h100_prod_03.certificate_authority[0].data  # public; required on aws/gcp/azure/oci with the central argo cd
      auth = {                                                    # required with the central argo cd on aws, oci, on-prem; gcp/azure default to gke/aks
        type         = "eks"                                      # eks | gke | aks | exec
        cluster_name = aws_eks_cluster.h100_prod_03.name          # required for eks: the name aws knows, not the fleet's
        role_arn     = "arn:aws:iam::777788889999:role/argocd-fleet-deployer"
      }
      # { type = "gke" }
      # { type = "aks", login_method = "workloadidentity", environment = "AzurePublicCloud" }
      # { type = "exec", command = "oci", args = ["ce", "cluster", "generate-token", "--cluster-id", "<ocid>"],
      #   env = { OCI_CLI_AUTH = "instance_principal" }, api_version = "client.authentication.k8s.io/v1beta1" }
      argocd = { mode = "central" }                               # optional; or { mode = "per-cluster", kargo_shard, namespace }
      shard  = 2                                                  # optional, pins a central cluster to a controller shard
    }
  }
}

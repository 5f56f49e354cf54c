package argocd

import (
	"context"
	"fmt"

	"github.com/argoproj/argo-cd/v3/common"
)

// checkRepositorySecrets reads every repository and repo-creds Secret the way Argo CD does when
// an Application fetches its source: ArgoDB.GetRepository (repository Secrets, by url and the
// Secret's own project) and ArgoDB.GetRepositoryCredentials (repo-creds, by url prefix), over the
// fake API server of newArgo. Both parse the Secret with util/db's unexported secretToRepository
// and secretToRepoCred (util/db/repository_secrets.go): a Secret they refuse fails every fetch of
// the repository. A repository Secret that parses but is not the one GetRepository returns for
// its url and project (another namespace than the Argo CD's, or an unscoped Secret answering
// instead) leaves the project's Applications without its credentials.
func checkRepositorySecrets(ctx context.Context, r *Report, fleet *Fleet, argo *Argo) {
	for _, s := range fleet.RepositorySecrets {
		url, project := string(s.Value.Data["url"]), string(s.Value.Data["project"])
		if s.Value.Labels[common.LabelKeySecretType] == common.LabelValueSecretTypeRepoCreds {
			r.count("repoCredsSecrets", 1)
			if _, err := argo.DB.GetRepositoryCredentials(ctx, url); err != nil {
				r.add(s.Object, secretRoot(s.Object), "repo-creds-secret-invalid",
					fmt.Sprintf("argo cd cannot read repo-creds secret %s: %s; no repository under %s gets its credentials", s.Object.Name, err, url),
					upstream("util/db", "ArgoDB.GetRepositoryCredentials"))
			}
			continue
		}
		r.count("repositorySecrets", 1)
		decidedBy := upstream("util/db", "ArgoDB.GetRepository")
		repo, err := argo.DB.GetRepository(ctx, url, project)
		if err != nil {
			r.add(s.Object, secretRoot(s.Object), "repository-secret-invalid",
				fmt.Sprintf("argo cd cannot read repository secret %s: %s; every application of project %q that fetches %s fails", s.Object.Name, err, project, url),
				decidedBy)
			continue
		}
		exists, err := argo.DB.RepositoryExists(ctx, url, project)
		if err == nil && exists && repo.Project == project {
			continue
		}
		path := secretField(s.Object, "project")
		if s.Value.Namespace != fleet.Namespace {
			path = "/metadata/namespace"
		}
		r.add(s.Object, path, "repository-secret-not-read",
			fmt.Sprintf("argo cd (namespace %s) does not use repository secret %s (namespace %s) for %s in project %q: the project's applications fetch it without these credentials",
				fleet.Namespace, s.Object.Name, s.Value.Namespace, url, project), decidedBy)
	}
}

// secretRoot is where a Secret's keys are written: a parse error does not say which key it was.
func secretRoot(obj *Object) string {
	field := secretField(obj, "url")
	return field[:len(field)-len("/url")]
}

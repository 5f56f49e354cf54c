package kargo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	kargoapi "github.com/akuity/kargo/api/v1alpha1"
	"github.com/akuity/kargo/pkg/promotion"
)

// The source repositories and charts the promotions read are the users' own, which the output
// names but does not hold. So that Kargo's steps find them, a first pass runs each Stage's steps
// through Kargo's orchestrator (LocalOrchestrator: the same `if`s, vars and expressions as the
// real run) with step runners that only record the configuration Kargo evaluated for them; the
// paths the recorded steps read in a checkout of a source repository are then given minimal
// content, in the shape each step reads (a kustomization and a Deployment of the subscribed
// images; a chart that shows its values; YAML files), and committed before the real run.

// recordedStep is a step's configuration as Kargo evaluated it.
type recordedStep struct {
	Kind   string
	Alias  string
	Config promotion.Config
}

// orchestratorEngine runs steps with a registry of its own through Kargo's LocalOrchestrator.
type orchestratorEngine struct{ o *promotion.LocalOrchestrator }

func (e orchestratorEngine) Promote(ctx context.Context, c promotion.Context, steps []promotion.Step) (promotion.Result, error) {
	return e.o.ExecuteSteps(ctx, c, steps)
}

// recorder is a step runner that records and succeeds with the outputs later steps read.
type recorder struct {
	kind string
	out  *[]recordedStep
}

func (r recorder) Run(_ context.Context, sc *promotion.StepContext) (promotion.StepResult, error) {
	*r.out = append(*r.out, recordedStep{Kind: r.kind, Alias: sc.Alias, Config: jsonCopy(sc.Config)})
	zero := strings.Repeat("0", 40)
	switch r.kind {
	case "fail":
		msg, _ := sc.Config["message"].(string)
		return promotion.StepResult{Status: kargoapi.PromotionStepStatusFailed}, &promotion.TerminalError{Err: errors.New(msg)}
	case "git-push":
		branch, _ := sc.Config["targetBranch"].(string)
		if branch == "" {
			branch = "kargo/promotion/" + sc.Promotion
		}
		return succeeded(map[string]any{"branch": branch, "commit": zero, "commitURL": ""}), nil
	case "git-commit":
		return succeeded(map[string]any{"commit": zero}), nil
	case "git-open-pr":
		return succeeded(map[string]any{"pr": map[string]any{"id": int64(1), "url": "https://example.invalid/pull/1"}}), nil
	case "git-wait-for-pr":
		return succeeded(map[string]any{"pr": map[string]any{"id": int64(1), "merged": true, "open": false}, "commit": zero}), nil
	}
	return succeeded(map[string]any{}), nil
}

// jsonCopy is a configuration as JSON reads it back (expressions may evaluate to Go ints, which
// Config.DeepCopy refuses).
func jsonCopy(c promotion.Config) promotion.Config {
	data, err := json.Marshal(c)
	if err != nil {
		return promotion.Config{}
	}
	out := promotion.Config{}
	_ = json.Unmarshal(data, &out)
	return out
}

func succeeded(output map[string]any) promotion.StepResult {
	return promotion.StepResult{Status: kargoapi.PromotionStepStatusSucceeded, Output: output}
}

// recordingRegistry registers a recorder for every built-in step kind, with the metadata Kargo
// registers the kind with (capabilities such as task output propagation change the run).
func recordingRegistry(out *[]recordedStep) promotion.StepRunnerRegistry {
	reg := promotion.MustNewStepRunnerRegistry()
	for kind := range stepRunners {
		real, err := promotion.DefaultStepRunnerRegistry.Get(kind)
		if err != nil {
			continue
		}
		k := kind
		reg.MustRegister(promotion.StepRunnerRegistration{
			Name:     k,
			Metadata: real.Metadata,
			Value:    func(promotion.StepRunnerCapabilities) promotion.StepRunner { return recorder{kind: k, out: out} },
		})
	}
	return reg
}

// checkout is where a git-clone step puts a repository in the work directory.
type checkout struct {
	dir     string // work-directory-relative, cleaned
	repoURL string
	branch  string
}

// contentRole is what a step does with a path of a source checkout.
type contentRole int

const (
	roleKustomizeBase contentRole = iota
	roleKustomizeOverlay
	roleChart
	roleUmbrellaChart
	roleYAML
	roleFile
)

// SourceContent collects, per repository and branch, the files the recorded steps read.
type SourceContent struct {
	// roles by repository URL, then repository-relative path
	roles    map[string]map[string]map[contentRole]bool
	branches map[string]string
	// cloned are every repository a git-clone step names (the release repositories too)
	cloned map[string]bool
	images map[string][]string // repository URL -> the subscribed images of its project
	charts map[string][]*kargoapi.ChartSubscription
}

func newSourceContent() *SourceContent {
	return &SourceContent{roles: map[string]map[string]map[contentRole]bool{}, branches: map[string]string{}, cloned: map[string]bool{},
		images: map[string][]string{}, charts: map[string][]*kargoapi.ChartSubscription{}}
}

func cleanDir(p string) string { return path.Clean(strings.TrimPrefix(p, "./")) }

// Add reads one Stage's recorded steps; sourceRepos are the repositories its Warehouses
// subscribe to, with the project's images and charts.
func (c *SourceContent) Add(steps []recordedStep, subs []kargoapi.RepoSubscription) {
	var images []string
	var charts []*kargoapi.ChartSubscription
	for _, s := range subs {
		if s.Image != nil {
			images = append(images, s.Image.RepoURL)
		}
		if s.Chart != nil {
			charts = append(charts, s.Chart)
		}
	}
	written := map[string]bool{} // checkouts steps commit to: the release repository's
	for _, s := range steps {
		if s.Kind == "git-commit" || s.Kind == "git-push" || s.Kind == "git-clear" {
			if p, ok := s.Config["path"].(string); ok {
				written[cleanDir(p)] = true
			}
		}
	}
	var checkouts []checkout
	for _, s := range steps {
		if s.Kind != "git-clone" {
			continue
		}
		repoURL, _ := s.Config["repoURL"].(string)
		c.cloned[repoURL] = true
		list, _ := s.Config["checkout"].([]any)
		for _, item := range list {
			m, _ := item.(map[string]any)
			dir, _ := m["path"].(string)
			branch, _ := m["branch"].(string)
			if dir == "" || written[cleanDir(dir)] {
				continue
			}
			checkouts = append(checkouts, checkout{dir: cleanDir(dir), repoURL: repoURL, branch: branch})
			if branch != "" {
				c.branches[repoURL] = branch
			}
		}
	}
	// the checkout a path is in: the deepest one (a checkout can be nested in another's directory)
	under := func(p string) (checkout, string, bool) {
		p = cleanDir(p)
		best, rel, found := checkout{}, "", false
		for _, co := range checkouts {
			r := ""
			switch {
			case p == co.dir:
				r = "."
			case strings.HasPrefix(p, co.dir+"/"):
				r = strings.TrimPrefix(p, co.dir+"/")
			default:
				continue
			}
			if !found || len(co.dir) > len(best.dir) {
				best, rel, found = co, r, true
			}
		}
		return best, rel, found
	}
	add := func(p string, role contentRole) {
		co, rel, ok := under(p)
		if !ok {
			return
		}
		if c.roles[co.repoURL] == nil {
			c.roles[co.repoURL] = map[string]map[contentRole]bool{}
		}
		if c.roles[co.repoURL][rel] == nil {
			c.roles[co.repoURL][rel] = map[contentRole]bool{}
		}
		c.roles[co.repoURL][rel][role] = true
		c.images[co.repoURL] = appendMissing(c.images[co.repoURL], images...)
		for _, ch := range charts {
			if !containsChart(c.charts[co.repoURL], ch) {
				c.charts[co.repoURL] = append(c.charts[co.repoURL], ch)
			}
		}
	}
	for _, s := range steps {
		str := func(k string) string { v, _ := s.Config[k].(string); return v }
		list := func(k string) []string {
			var out []string
			items, _ := s.Config[k].([]any)
			for _, it := range items {
				if v, ok := it.(string); ok {
					out = append(out, v)
				}
			}
			return out
		}
		switch s.Kind {
		case "kustomize-set-image":
			add(str("path"), roleKustomizeBase)
		case "kustomize-build":
			add(str("path"), roleKustomizeOverlay)
		case "helm-template":
			add(str("path"), roleChart)
			for _, v := range list("valuesFiles") {
				add(v, roleYAML)
			}
		case "helm-update-chart":
			add(str("path"), roleUmbrellaChart)
		case "yaml-update":
			add(str("path"), roleYAML)
		case "yaml-merge":
			for _, v := range list("inFiles") {
				add(v, roleYAML)
			}
		case "copy":
			add(str("inPath"), roleFile)
		}
	}
}

func appendMissing(list []string, items ...string) []string {
	for _, it := range items {
		found := false
		for _, l := range list {
			found = found || l == it
		}
		if !found {
			list = append(list, it)
		}
	}
	return list
}

func containsChart(list []*kargoapi.ChartSubscription, c *kargoapi.ChartSubscription) bool {
	for _, l := range list {
		if l.RepoURL == c.RepoURL && l.Name == c.Name {
			return true
		}
	}
	return false
}

// Repositories are the repository URLs with content, sorted.
func (c *SourceContent) Repositories() []string {
	out := make([]string, 0, len(c.roles))
	for r := range c.roles {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// Branch is the branch a repository's content goes on (the one checked out, else main).
func (c *SourceContent) Branch(repoURL, subscribed string) string {
	if subscribed != "" {
		return subscribed
	}
	if b := c.branches[repoURL]; b != "" {
		return b
	}
	return "main"
}

// Files are a repository's files: path -> content.
func (c *SourceContent) Files(repoURL string) map[string]string {
	files := map[string]string{}
	roles := c.roles[repoURL]
	var bases []string
	for p, r := range roles {
		if r[roleKustomizeBase] {
			bases = append(bases, p)
		}
	}
	sort.Strings(bases)
	for p, r := range roles {
		join := func(name string) string { return path.Join(p, name) }
		switch {
		case r[roleKustomizeBase]:
			files[join("kustomization.yaml")] = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - deployment.yaml\n"
			files[join("deployment.yaml")] = deployment(c.images[repoURL])
		case r[roleKustomizeOverlay]:
			var refs []string
			for _, b := range bases {
				if rel, err := relPath(p, b); err == nil {
					refs = append(refs, rel)
				}
			}
			if len(refs) == 0 {
				files[join("deployment.yaml")] = deployment(c.images[repoURL])
				refs = []string{"deployment.yaml"}
			}
			files[join("kustomization.yaml")] = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - " + strings.Join(refs, "\n  - ") + "\n"
		case r[roleChart] || r[roleUmbrellaChart]:
			chartYAML := fmt.Sprintf("apiVersion: v2\nname: %s\nversion: 0.1.0\n", chartName(p))
			if r[roleUmbrellaChart] {
				chartYAML += dependencies(c.charts[repoURL])
			}
			files[join("Chart.yaml")] = chartYAML
			files[join("templates/configmap.yaml")] = chartTemplate
			files[join("values.yaml")] = "{}\n"
		case r[roleYAML]:
			files[p] = "{}\n"
		case r[roleFile]:
			files[p] = "conformance\n"
		}
	}
	return files
}

func chartName(p string) string {
	name := path.Base(p)
	if name == "." || name == "/" {
		return "chart"
	}
	return name
}

// relPath is b relative to a, both repository-relative directories.
func relPath(a, b string) (string, error) {
	if a == b {
		return "", fmt.Errorf("same directory")
	}
	up := strings.Split(a, "/")
	down := strings.Split(b, "/")
	i := 0
	for i < len(up) && i < len(down) && up[i] == down[i] {
		i++
	}
	parts := []string{}
	for range up[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, down[i:]...)
	return strings.Join(parts, "/"), nil
}

// deployment is a Deployment with one container per subscribed image (image: the repository,
// without a tag, as an application's base manifests reference it).
func deployment(images []string) string {
	var b strings.Builder
	b.WriteString("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\nspec:\n  selector:\n    matchLabels: {app: app}\n  template:\n    metadata:\n      labels: {app: app}\n    spec:\n      containers:\n")
	if len(images) == 0 {
		images = []string{"registry.example.invalid/app"}
	}
	for i, img := range images {
		fmt.Fprintf(&b, "        - name: c%d\n          image: %s\n", i, img)
	}
	return b.String()
}

// dependencies is the Chart.yaml dependencies block of an umbrella chart over the subscribed
// charts, as Helm documents them: a classic repository by its URL and the chart's name; an OCI
// chart oci://<registry path>/<name> by repository oci://<registry path> and name <name>
// (helm-update-chart matches both exactly: pkg/helm/dependency_manager.go processDependencyUpdates).
func dependencies(charts []*kargoapi.ChartSubscription) string {
	if len(charts) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("dependencies:\n")
	for _, c := range charts {
		repo, name := c.RepoURL, c.Name
		if strings.HasPrefix(repo, "oci://") {
			repo, name = path.Dir(strings.TrimSuffix(repo, "/")), path.Base(strings.TrimSuffix(repo, "/"))
			repo = strings.Replace(repo, "oci:/", "oci://", 1)
		}
		version := c.SemverConstraint
		if version == "" {
			version = "*"
		}
		fmt.Fprintf(&b, "  - name: %s\n    repository: %s\n    version: %q\n", name, repo, version)
	}
	return b.String()
}

package kargo

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	_ "unsafe" // go:linkname

	"github.com/akuity/kargo/pkg/gitprovider"
)

// registeredProviders is Kargo's registry of Git providers (pkg/gitprovider/registry.go), which
// git-open-pr and git-wait-for-pr ask for the provider of a repository URL (gitprovider.New: the
// provider named in the step, else the first whose Predicate accepts the URL). Linked so that the
// hosting services' own providers, which pkg/promotion/runner/builtin registers, make way for
// the local one under the same names: the steps run unchanged.
//
//go:linkname registeredProviders github.com/akuity/kargo/pkg/gitprovider.registeredProviders
var registeredProviders map[string]gitprovider.Registration

// PullRequests is the local Git hosting service: pull requests on the GitWorld's repositories,
// answered through Kargo's gitprovider.Fake and merged by a real git merge when the reviewer merges.
type PullRequests struct {
	git  *GitWorld
	mu   sync.Mutex
	next int64
	prs  map[int64]*pullRequest
}

type pullRequest struct {
	repoURL    string
	head, base string
	pr         gitprovider.PullRequest
}

// RegisterPullRequests registers the local service under every provider name Kargo knows
// (github, gitlab, azure, bitbucket, gitea), each accepting every URL.
func RegisterPullRequests(g *GitWorld) *PullRequests {
	p := &PullRequests{git: g, next: 1, prs: map[int64]*pullRequest{}}
	reg := gitprovider.Registration{
		Predicate: func(string) bool { return true },
		NewProvider: func(repoURL string, _ *gitprovider.Options) (gitprovider.Interface, error) {
			return p.provider(repoURL), nil
		},
	}
	names := make([]string, 0, len(registeredProviders))
	for name := range registeredProviders {
		names = append(names, name)
	}
	for _, name := range names {
		delete(registeredProviders, name)
		gitprovider.Register(name, reg)
	}
	if len(names) == 0 {
		gitprovider.Register("github", reg)
	}
	return p
}

func (p *PullRequests) provider(repoURL string) gitprovider.Interface {
	return &gitprovider.Fake{
		CreatePullRequestFn: func(_ context.Context, opts *gitprovider.CreatePullRequestOpts) (*gitprovider.PullRequest, error) {
			head, err := p.git.Resolve(repoURL, "refs/heads/"+opts.Head)
			if err != nil {
				return nil, fmt.Errorf("head branch %q: %w", opts.Head, err)
			}
			p.mu.Lock()
			defer p.mu.Unlock()
			n := p.next
			p.next++
			now := time.Now()
			pr := &pullRequest{repoURL: repoURL, head: opts.Head, base: opts.Base, pr: gitprovider.PullRequest{
				Number: n, URL: prURL(repoURL, n), Open: true, HeadSHA: head, CreatedAt: &now,
			}}
			p.prs[n] = pr
			out := pr.pr
			return &out, nil
		},
		GetPullRequestFn: func(_ context.Context, n int64) (*gitprovider.PullRequest, error) {
			p.mu.Lock()
			defer p.mu.Unlock()
			pr, ok := p.prs[n]
			if !ok || pr.repoURL != repoURL {
				return nil, fmt.Errorf("pull request %d of %s not found", n, repoURL)
			}
			out := pr.pr
			return &out, nil
		},
		ListPullRequestsFn: func(_ context.Context, opts *gitprovider.ListPullRequestOptions) ([]gitprovider.PullRequest, error) {
			p.mu.Lock()
			defer p.mu.Unlock()
			var out []gitprovider.PullRequest
			for _, pr := range p.prs {
				if pr.repoURL != repoURL || (opts.HeadBranch != "" && opts.HeadBranch != pr.head) ||
					(opts.BaseBranch != "" && opts.BaseBranch != pr.base) || (opts.HeadCommit != "" && opts.HeadCommit != pr.pr.HeadSHA) {
					continue
				}
				switch opts.State {
				case gitprovider.PullRequestStateOpen:
					if !pr.pr.Open {
						continue
					}
				case gitprovider.PullRequestStateClosed:
					if pr.pr.Open {
						continue
					}
				}
				out = append(out, pr.pr)
			}
			return out, nil
		},
		MergePullRequestFn: func(_ context.Context, n int64, _ *gitprovider.MergePullRequestOpts) (*gitprovider.PullRequest, bool, error) {
			pr, err := p.Merge(n)
			return pr, err == nil, err
		},
		GetCommitURLFn: func(repoURL, sha string) (string, error) { return repoURL + "/commit/" + sha, nil },
	}
}

func prURL(repoURL string, n int64) string {
	u, err := url.Parse(repoURL)
	if err != nil {
		return fmt.Sprintf("%s/pull/%d", repoURL, n)
	}
	return fmt.Sprintf("https://%s%s/pull/%d", u.Host, u.Path, n)
}

// Open are the numbers of the open pull requests whose head branch contains head (every one for "").
func (p *PullRequests) Open(head string) []int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []int64
	for n, pr := range p.prs {
		if pr.pr.Open && strings.Contains(pr.head, head) {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Merge is the reviewer merging a pull request: a merge commit of head into base.
func (p *PullRequests) Merge(n int64) (*gitprovider.PullRequest, error) {
	p.mu.Lock()
	pr, ok := p.prs[n]
	p.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("pull request %d not found", n)
	}
	sha, err := p.git.Merge(pr.repoURL, pr.head, pr.base, fmt.Sprintf("Merge pull request #%d from %s", n, pr.head))
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	pr.pr.Open, pr.pr.Merged, pr.pr.MergeCommitSHA = false, true, sha
	out := pr.pr
	return &out, nil
}

// Close is the reviewer closing a pull request without merging it.
func (p *PullRequests) Close(n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pr, ok := p.prs[n]; ok {
		pr.pr.Open = false
	}
}

package kargo

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// GitWorld holds a local bare repository for every repository URL the output names, reached
// under its real URL: Kargo runs git with a HOME of its own per clone and an environment of its
// own (pkg/controller/git/base_repo.go buildCommand: HOME and a few variables, not the
// process's), so the redirection goes where every git reads it, git's system configuration. A
// `git` first on PATH (Kargo finds git by PATH) sets GIT_CONFIG_SYSTEM to a file holding
// `url.file://<dir>/<host>/.insteadOf https://<host>/` (and the ssh forms) for every host, and
// runs the real git (>= 2.42: git-clone with create runs `git worktree add --orphan`).
type GitWorld struct {
	dir    string
	git    string // the real git
	config string
	mu     sync.Mutex
	hosts  map[string]bool
}

// NewGitWorld prepares dir/repos, the system configuration and the git wrapper, and puts the
// wrapper first on this process's PATH.
func NewGitWorld(dir string) (*GitWorld, error) {
	// the git on PATH before any world put its wrapper first
	realGitOnce.Do(func() { realGit, realGitErr = exec.LookPath("git") })
	real, err := realGit, realGitErr
	if err != nil {
		return nil, fmt.Errorf("git is not on PATH (the promotions need git >= 2.42: scripts/git-for-kargo.sh builds one): %w", err)
	}
	out, err := exec.Command(real, "version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s version: %w", real, err)
	}
	if !gitNewEnough(strings.TrimSpace(string(out))) {
		return nil, fmt.Errorf("%s is %s; kargo's git-clone with create needs git >= 2.42 (`git worktree add --orphan`): put the git scripts/git-for-kargo.sh prints first on PATH",
			real, strings.TrimSpace(string(out)))
	}
	w := &GitWorld{dir: dir, git: real, config: filepath.Join(dir, "gitconfig"), hosts: map[string]bool{}}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(filepath.Join(dir, "repos"), 0o755); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return nil, err
	}
	wrapper := fmt.Sprintf("#!/bin/sh\nGIT_CONFIG_SYSTEM=%q\nexport GIT_CONFIG_SYSTEM\nexec %q \"$@\"\n", w.config, real)
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(wrapper), 0o755); err != nil {
		return nil, err
	}
	if err := w.writeConfig(); err != nil {
		return nil, err
	}
	return w, os.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

var (
	realGit     string
	realGitErr  error
	realGitOnce sync.Once
)

// gitNewEnough reads "git version 2.47.3" and says whether it is 2.42 or later.
func gitNewEnough(version string) bool {
	var major, minor int
	if _, err := fmt.Sscanf(strings.TrimPrefix(version, "git version "), "%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > 2 || (major == 2 && minor >= 42)
}

func (w *GitWorld) writeConfig() error {
	var b strings.Builder
	b.WriteString("[protocol \"file\"]\n\tallow = always\n[safe]\n\tdirectory = *\n[init]\n\tdefaultBranch = main\n")
	hosts := make([]string, 0, len(w.hosts))
	for h := range w.hosts {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	for _, h := range hosts {
		fmt.Fprintf(&b, "[url \"file://%s/\"]\n", filepath.Join(w.dir, "repos", h))
		for _, from := range []string{"https://" + h + "/", "http://" + h + "/", "git@" + h + ":", "ssh://git@" + h + "/"} {
			fmt.Fprintf(&b, "\tinsteadOf = %s\n", from)
		}
	}
	return os.WriteFile(w.config, []byte(b.String()), 0o644)
}

// repoPath is where the bare repository of a URL is: repos/<host>/<path>, always ending in .git
// (the URL with and without .git is one repository, as on a Git host).
func (w *GitWorld) repoPath(repoURL string) (string, string, error) {
	host, p, err := splitGitURL(repoURL)
	if err != nil {
		return "", "", err
	}
	return host, filepath.Join(w.dir, "repos", host, strings.TrimSuffix(p, ".git")+".git"), nil
}

func splitGitURL(repoURL string) (string, string, error) {
	if rest, ok := strings.CutPrefix(repoURL, "git@"); ok {
		host, p, found := strings.Cut(rest, ":")
		if !found {
			return "", "", fmt.Errorf("git url %q has no path", repoURL)
		}
		return host, strings.Trim(p, "/"), nil
	}
	u, err := url.Parse(repoURL)
	if err != nil || u.Host == "" {
		return "", "", fmt.Errorf("git url %q has no host", repoURL)
	}
	return u.Hostname(), strings.Trim(u.Path, "/"), nil
}

// Ensure creates the bare repository of a URL (with a `main` branch holding a README, as a
// repository on a Git host starts) unless it exists, and returns its directory.
func (w *GitWorld) Ensure(repoURL string) (string, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	host, dir, err := w.repoPath(repoURL)
	if err != nil {
		return "", err
	}
	if !w.hosts[host] {
		w.hosts[host] = true
		if err := w.writeConfig(); err != nil {
			return "", err
		}
	}
	// the URL without .git reaches the same repository
	alias := strings.TrimSuffix(dir, ".git")
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	if _, err := w.run("", "init", "-q", "--bare", "-b", "main", dir); err != nil {
		return "", err
	}
	if err := os.Symlink(filepath.Base(dir), alias); err != nil && !os.IsExist(err) {
		return "", err
	}
	if _, err := w.commit(dir, "main", map[string]string{"README.md": "# " + repoURL + "\n"}, "initial commit"); err != nil {
		return "", err
	}
	return dir, nil
}

// Commit writes files (path -> content; "" deletes) on a branch of a URL's repository (created
// from main when missing) and returns the new commit.
func (w *GitWorld) Commit(repoURL, branch string, files map[string]string, message string) (string, error) {
	dir, err := w.Ensure(repoURL)
	if err != nil {
		return "", err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.commit(dir, branch, files, message)
}

func (w *GitWorld) commit(bare, branch string, files map[string]string, message string) (string, error) {
	tmp, err := os.MkdirTemp(w.dir, "commit-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if _, err := w.run("", "clone", "-q", bare, tmp); err != nil {
		return "", err
	}
	start := "origin/" + branch
	if _, err := w.run(tmp, "rev-parse", "--verify", "-q", start); err != nil {
		start = "origin/main"
		if _, err := w.run(tmp, "rev-parse", "--verify", "-q", start); err != nil {
			start = ""
		}
	}
	args := []string{"checkout", "-q", "-B", branch}
	if start != "" {
		args = append(args, start)
	}
	if _, err := w.run(tmp, args...); err != nil {
		return "", err
	}
	for p, content := range files {
		target := filepath.Join(tmp, filepath.FromSlash(p))
		if content == "" {
			_ = os.RemoveAll(target)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(target, []byte(content), 0o644); err != nil {
			return "", err
		}
	}
	if _, err := w.run(tmp, "add", "-A"); err != nil {
		return "", err
	}
	if _, err := w.run(tmp, "commit", "-q", "--allow-empty", "-m", message); err != nil {
		return "", err
	}
	if _, err := w.run(tmp, "push", "-q", "origin", "HEAD:refs/heads/"+branch); err != nil {
		return "", err
	}
	return w.run(tmp, "rev-parse", "HEAD")
}

// Resolve is the commit a revision (branch, tag or commit) of a URL's repository names.
func (w *GitWorld) Resolve(repoURL, revision string) (string, error) {
	dir, err := w.Ensure(repoURL)
	if err != nil {
		return "", err
	}
	return w.run(dir, "rev-parse", "--verify", "-q", revision+"^{commit}")
}

// Files are the files below a path at a commit of a URL's repository (path -> content), read
// with one ls-tree and one cat-file --batch: a git show per file was a tenth of the git processes
// of a run on manifests/.
func (w *GitWorld) Files(repoURL, commit, dir string) (map[string]string, error) {
	bare, err := w.Ensure(repoURL)
	if err != nil {
		return nil, err
	}
	p := strings.Trim(filepath.ToSlash(filepath.Clean(dir)), "/")
	args := []string{"ls-tree", "-r", "-z", commit}
	if p != "" && p != "." {
		args = append(args, "--", p+"/")
	}
	list, err := w.output(bare, nil, args...)
	if err != nil {
		return nil, err
	}
	var names []string
	var ids bytes.Buffer
	for _, entry := range strings.Split(string(list), "\x00") {
		meta, name, ok := strings.Cut(entry, "\t")
		// <mode> SP <type> SP <object>: a submodule (commit) has no content here
		if f := strings.Fields(meta); ok && len(f) == 3 && f[1] == "blob" {
			names = append(names, name)
			ids.WriteString(f[2] + "\n")
		}
	}
	files := map[string]string{}
	if len(names) == 0 {
		return files, nil
	}
	out, err := w.output(bare, ids.Bytes(), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	// each object: "<object> blob <size>\n", its bytes, "\n"
	for _, name := range names {
		header, rest, ok := bytes.Cut(out, []byte("\n"))
		var oid, kind string
		var size int
		if !ok {
			return nil, fmt.Errorf("git cat-file --batch in %s: output ends before %s", bare, name)
		}
		if _, err := fmt.Sscanf(string(header), "%s %s %d", &oid, &kind, &size); err != nil || len(rest) < size+1 {
			return nil, fmt.Errorf("git cat-file --batch in %s: unexpected %q for %s", bare, header, name)
		}
		files[name] = string(rest[:size])
		out = rest[size+1:]
	}
	return files, nil
}

// Merge merges a branch into another in a URL's repository (a pull request merged with a merge
// commit) and returns the merge commit.
func (w *GitWorld) Merge(repoURL, head, base, message string) (string, error) {
	bare, err := w.Ensure(repoURL)
	if err != nil {
		return "", err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	tmp, err := os.MkdirTemp(w.dir, "merge-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if _, err := w.run("", "clone", "-q", "-b", base, bare, tmp); err != nil {
		return "", err
	}
	if _, err := w.run(tmp, "merge", "-q", "--no-ff", "--allow-unrelated-histories", "-m", message, "origin/"+head); err != nil {
		return "", err
	}
	if _, err := w.run(tmp, "push", "-q", "origin", "HEAD:refs/heads/"+base); err != nil {
		return "", err
	}
	return w.run(tmp, "rev-parse", "HEAD")
}

// BranchExists says whether a URL's repository has a branch.
func (w *GitWorld) BranchExists(repoURL, branch string) bool {
	_, err := w.Resolve(repoURL, "refs/heads/"+branch)
	return err == nil
}

func (w *GitWorld) run(dir string, args ...string) (string, error) {
	out, err := w.output(dir, nil, args...)
	return strings.TrimSpace(string(out)), err
}

// output runs git in dir with stdin (nil: none) and returns its standard output as it is.
func (w *GitWorld) output(dir string, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.Command(w.git, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_SYSTEM="+w.config, "GIT_AUTHOR_NAME=conformance", "GIT_AUTHOR_EMAIL=conformance@example.invalid",
		"GIT_COMMITTER_NAME=conformance", "GIT_COMMITTER_EMAIL=conformance@example.invalid")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

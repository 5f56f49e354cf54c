package kargo

import (
	"maps"
	"testing"
)

// Files reads every file below a path at a commit, byte for byte, and nothing outside the path.
func TestFilesReadsAPathAtACommit(t *testing.T) {
	w, err := NewGitWorld(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const repo = "https://git.example.com/platform/release.git"
	want := map[string]string{
		"envs/prod/app.yaml":          "image: app:1.2.3\n",
		"envs/prod/nested/no-eol":     "kind: Thing",
		"envs/prod/nested/two\nlines": "a\n\nb\n\n",
	}
	commit, err := w.Commit(repo, "release/prod", map[string]string{
		"envs/prod/app.yaml": want["envs/prod/app.yaml"], "envs/prod/nested/no-eol": want["envs/prod/nested/no-eol"],
		"envs/prod/nested/two\nlines": want["envs/prod/nested/two\nlines"], "envs/staging/app.yaml": "image: app:1.2.2\n",
	}, "render")
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.Files(repo, commit, "envs/prod")
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) {
		t.Fatalf("Files(envs/prod) = %q, want %q", got, want)
	}
	if none, err := w.Files(repo, commit, "envs/qa"); err != nil || len(none) != 0 {
		t.Fatalf("Files(envs/qa) = %q, %v; want nothing", none, err)
	}
}

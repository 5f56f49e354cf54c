package main

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"sort"
	"strings"
)

// The sample requests of the example platform's receivers, built in so that the binary the
// orchestrator runs from .conformance/bin needs no path back to its sources.
//
//go:embed requests/*.json
var builtInRequests embed.FS

// Sample is a request a receiver is run against: requests/<receiver name>.json.
type Sample struct {
	Comment string              `json:"comment"`
	Method  string              `json:"method"`
	Headers map[string][]string `json:"headers"`
	Query   string              `json:"query"`
	// Body is the request body, decoded as newBaseEnv decodes it (json.Unmarshal into any:
	// numbers are float64); absent, it is nil, as for an empty body.
	Body any `json:"body"`
}

// loadSamples reads every <receiver name>.json of dir, or the built-in ones when dir is "".
func loadSamples(dir string) (map[string]Sample, error) {
	var fsys fs.FS = builtInRequests
	pattern := "requests/*.json"
	if dir != "" {
		fsys, pattern = os.DirFS(dir), "*.json"
	}
	if dir != "" {
		if info, err := fs.Stat(fsys, "."); err != nil || !info.IsDir() {
			return nil, fmt.Errorf("--requests %s is not a readable directory", dir)
		}
	}
	files, err := fs.Glob(fsys, pattern)
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	samples := map[string]Sample{}
	for _, file := range files {
		data, err := fs.ReadFile(fsys, file)
		if err != nil {
			return nil, err
		}
		var s Sample
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, fmt.Errorf("%s is not a sample request {comment, method, headers, query, body}: %w", file, err)
		}
		samples[strings.TrimSuffix(path.Base(file), ".json")] = s
	}
	return samples, nil
}

// standInNormalize stands in for pkg/urls NormalizeGit, NormalizeImage and NormalizeChart (Kargo
// packages cannot be compiled here): same Go signature, func(string) string, so a call with a
// non-string fails here as it does in Kargo, but it returns its argument. The check proves that
// the expressions compile and evaluate to the right types, not how Kargo normalizes the URL.
func standInNormalize(repo string) string { return repo }

// newEnv is the env Kargo evaluates an action's expressions in on this request: restates
// pkg/webhook/external/generic.go newBaseEnv (request.header = Header.Get, headers =
// Header.Values, body = the JSON body unmarshaled into any, params = URL.Query().Get) and
// generic_actions.go newActionEnv (a top-level params map of the action's parameters).
func newEnv(s Sample, actionParams map[string]string) map[string]any {
	method := s.Method
	if method == "" {
		method = http.MethodPost
	}
	target := "/webhook"
	if s.Query != "" {
		target += "?" + s.Query
	}
	r := httptest.NewRequest(method, target, nil)
	for name, values := range s.Headers {
		for _, v := range values {
			r.Header.Add(name, v)
		}
	}
	env := map[string]any{
		"normalizeGit":   standInNormalize,
		"normalizeImage": standInNormalize,
		"normalizeChart": standInNormalize,
		"request": map[string]any{
			"header":  r.Header.Get,
			"headers": r.Header.Values,
			"body":    s.Body,
			"params":  r.URL.Query().Get,
		},
	}
	params := make(map[string]any, len(actionParams))
	for k, v := range actionParams {
		params[k] = v
	}
	env["params"] = params
	return env
}

// Package suite is what the conformance commands (conformance/argocd, rollouts, apiserver) share:
// reading a manifests directory, the report of CONFORMANCE-PROTOCOL.md, the protocol's flags and
// exit codes. It pins the lowest k8s.io/apimachinery of the three; each command's own require and
// replace decide the version it links.
package suite

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// Object is one document of a synthesized manifest, kept as JSON so that each check decodes it
// into the upstream type it needs.
type Object struct {
	Source     string // path relative to the manifests directory, with forward slashes
	APIVersion string
	Kind       string
	Name       string
	Namespace  string
	JSON       []byte
}

// ReadManifests reads every *.yaml / *.yml file below dir (in path order), every document of
// each. Empty and null documents are skipped; a document that is not an object fails.
func ReadManifests(dir string) ([]Object, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var objects []Object
	for _, file := range files {
		rel, err := filepath.Rel(dir, file)
		if err != nil {
			return nil, err
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		docs, err := ParseDocuments(filepath.ToSlash(rel), data)
		if err != nil {
			return nil, err
		}
		objects = append(objects, docs...)
	}
	return objects, nil
}

// ParseDocuments splits a multi-document YAML stream the way kubectl does (k8s.io/apimachinery's
// YAML reader), so a document boundary is where the API server's clients see one.
func ParseDocuments(source string, data []byte) ([]Object, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var objects []Object
	for {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return objects, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		if string(js) == "null" {
			continue
		}
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name      string `json:"name"`
				Namespace string `json:"namespace"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(js, &head); err != nil {
			return nil, fmt.Errorf("%s: a document is not an object: %w", source, err)
		}
		objects = append(objects, Object{Source: source, APIVersion: head.APIVersion, Kind: head.Kind, Name: head.Metadata.Name, Namespace: head.Metadata.Namespace, JSON: js})
	}
}

// Finding is a finding about o; format and args make its message.
func (o Object) Finding(path, code, upstream, format string, args ...any) Finding {
	return Finding{Source: o.Source, APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, Namespace: o.Namespace, Path: path, Code: code, Upstream: upstream, Message: fmt.Sprintf(format, args...)}
}

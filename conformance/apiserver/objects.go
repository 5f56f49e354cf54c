// Kept identical to conformance/rollouts/objects.go: both modules read manifests the same way,
// and a shared module would need a replace directive in each (they pin different k8s versions).
package main

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
	Source     string
	APIVersion string
	Kind       string
	Name       string
	Namespace  string
	JSON       []byte
}

// readManifests reads every *.yaml / *.yml file below dir (sorted, multi-document).
func readManifests(dir string) ([]Object, error) {
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
		docs, err := readDocuments(file, filepath.ToSlash(rel))
		if err != nil {
			return nil, err
		}
		objects = append(objects, docs...)
	}
	return objects, nil
}

func readDocuments(file, source string) ([]Object, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
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

func (o Object) finding(path, code, upstream, format string, args ...any) Finding {
	return Finding{Source: o.Source, APIVersion: o.APIVersion, Kind: o.Kind, Name: o.Name, Namespace: o.Namespace, Path: path, Code: code, Upstream: upstream, Message: fmt.Sprintf(format, args...)}
}

func sortedStrings(s []string) []string {
	sort.Strings(s)
	return s
}

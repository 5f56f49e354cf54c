package kargo

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	kargoapi "github.com/akuity/kargo/api/v1alpha1"
	"github.com/akuity/kargo/pkg/api"
)

// Generation is one release of every artifact: 1 is the first, 2 a newer one whose versions read
// as numbers where the subscription allows it (a tag `1.20`, a chart `4.2`), the way YAML and
// expressions most often go wrong.
type Generation int

// versionToken finds the versions a constraint names.
var versionToken = regexp.MustCompile(`v?\d+(\.\d+){0,2}`)

// versionsFor are two versions a SemVer constraint accepts (the first release, then a newer
// one), from the versions the constraint names and their neighbours; with no constraint, 1.0.0
// and 1.20. A second version that reads as a number (`1.20`) is preferred when Masterminds
// semver (Kargo's parser) accepts it as newer.
func versionsFor(constraint string, strict bool) (string, string, error) {
	candidates := []string{"1.0.0", "1.20", "1.20.0"}
	if constraint != "" {
		candidates = nil
		for _, tok := range versionToken.FindAllString(constraint, -1) {
			v, err := semver.NewVersion(tok)
			if err != nil {
				continue
			}
			for _, c := range []semver.Version{*v, v.IncPatch(), v.IncMinor(), v.IncMajor()} {
				candidates = append(candidates, c.String(), fmt.Sprintf("%d.%d", c.Major(), c.Minor()+20), fmt.Sprintf("%d.%d.0", c.Major(), c.Minor()+20))
			}
			candidates = append(candidates, fmt.Sprintf("%d.%d.%d", v.Major(), v.Minor(), v.Patch()+1))
		}
	}
	var c *semver.Constraints
	if constraint != "" {
		var err error
		if c, err = semver.NewConstraint(constraint); err != nil {
			return "", "", fmt.Errorf("semver constraint %q does not parse (Masterminds semver, as Kargo): %w", constraint, err)
		}
	}
	var ok []*semver.Version
	seen := map[string]bool{}
	for _, cand := range candidates {
		if seen[cand] {
			continue
		}
		seen[cand] = true
		parse := semver.NewVersion
		if strict {
			parse = semver.StrictNewVersion
		}
		v, err := parse(cand)
		if err != nil || (c != nil && !c.Check(v)) {
			continue
		}
		ok = append(ok, v)
	}
	sort.SliceStable(ok, func(i, j int) bool { return ok[i].LessThan(ok[j]) })
	if len(ok) < 2 {
		return "", "", fmt.Errorf("found no two versions that semver constraint %q accepts", constraint)
	}
	first := ok[0]
	// the first newer one that reads as a number, else the next one
	second := ok[1]
	for _, v := range ok[1:] {
		if strings.Count(v.Original(), ".") == 1 {
			second = v
			break
		}
	}
	return first.Original(), second.Original(), nil
}

// imageTags are the tags of an image subscription's two generations.
func imageTags(sub *kargoapi.ImageSubscription) (string, string, error) {
	switch sub.ImageSelectionStrategy {
	case "", kargoapi.ImageSelectionStrategySemVer:
		return versionsFor(sub.Constraint, sub.StrictSemvers != nil && *sub.StrictSemvers)
	case kargoapi.ImageSelectionStrategyDigest:
		// the constraint is the mutable tag whose digest is followed
		tag := sub.Constraint
		if tag == "" {
			tag = "latest"
		}
		return tag, tag, nil
	}
	return "1.0.0", "1.20", nil
}

// FreightSource is what a Generation of one Warehouse's Freight is built from: the commit of
// each Git subscription, and the chart versions the chart repositories serve.
type FreightSource struct {
	Commits map[string]kargoapi.GitCommit // by subscription repoURL
	Charts  map[string][2]string          // by subscription repoURL: the two versions
}

// BuildFreight is the Freight a Warehouse produces at a generation, named by Kargo's own
// api.GenerateFreightID (what the Warehouse controller names it by).
func BuildFreight(w *kargoapi.Warehouse, gen Generation, src FreightSource) (*kargoapi.Freight, error) {
	f := &kargoapi.Freight{
		ObjectMeta: metav1.ObjectMeta{Namespace: w.Namespace},
		Origin:     kargoapi.FreightOrigin{Kind: kargoapi.FreightOriginKindWarehouse, Name: w.Name},
	}
	for _, sub := range w.Spec.InternalSubscriptions {
		switch {
		case sub.Git != nil:
			c, ok := src.Commits[sub.Git.RepoURL]
			if !ok {
				return nil, fmt.Errorf("warehouse %s/%s: no commit of %s", w.Namespace, w.Name, sub.Git.RepoURL)
			}
			f.Commits = append(f.Commits, c)
		case sub.Image != nil:
			first, second, err := imageTags(sub.Image)
			if err != nil {
				return nil, fmt.Errorf("warehouse %s/%s image %s: %w", w.Namespace, w.Name, sub.Image.RepoURL, err)
			}
			tag := first
			if gen == 2 {
				tag = second
			}
			f.Images = append(f.Images, kargoapi.Image{RepoURL: sub.Image.RepoURL, Tag: tag, Digest: digestOf(sub.Image.RepoURL + ":" + tag)})
		case sub.Chart != nil:
			versions, ok := src.Charts[sub.Chart.RepoURL]
			if !ok {
				return nil, fmt.Errorf("warehouse %s/%s: no versions of chart %s", w.Namespace, w.Name, sub.Chart.RepoURL)
			}
			f.Charts = append(f.Charts, kargoapi.Chart{RepoURL: sub.Chart.RepoURL, Name: sub.Chart.Name, Version: versions[gen-1]})
		}
	}
	f.Name = api.GenerateFreightID(f)
	return f, nil
}

// digestOf is a stand-in image digest, stable per reference.
func digestOf(ref string) string {
	var h uint64 = 14695981039346656037
	for _, b := range []byte(ref) {
		h ^= uint64(b)
		h *= 1099511628211
	}
	return fmt.Sprintf("sha256:%064x", h)
}

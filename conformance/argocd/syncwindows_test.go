package main

import (
	"strings"
	"testing"
	"time"
)

func projectWithWindow(window string) string {
	return hubProject + "  syncWindows:\n" + window
}

func freeze(schedule, duration, zone string) string {
	return "    - kind: deny\n      schedule: \"" + schedule + "\"\n      duration: " + duration +
		"\n      timeZone: " + zone + "\n      applications: [shop-*]\n"
}

func TestSyncWindowSchedulesArgoCDCannotParse(t *testing.T) {
	// v3.5.1 builds its parser with Minute|Hour|Dom|Month|Dow and no Descriptor: no @weekly,
	// and day-of-week runs 0-6.
	for _, schedule := range []string{"@weekly", "0 0 * * 7", "0 0 20 12"} {
		t.Run(schedule, func(t *testing.T) {
			r := runOn(t, map[string]string{"shop.k8s.yaml": docs(projectWithWindow(freeze(schedule, "336h", "UTC")), clusterSecret, application)}, nil)
			f := onlyFinding(t, r, "sync-window-invalid")
			if f.Kind != "AppProject" || f.Name != "shop" || f.Path != "/spec/syncWindows/0/schedule" {
				t.Errorf("finding on %s %s %s", f.Kind, f.Name, f.Path)
			}
			mustContain(t, f.Message, "cannot parse schedule '"+schedule+"'", "refuses every sync of the 1 written applications it matches (shop-prod-01)")
			if !strings.HasSuffix(f.Upstream, "v1alpha1.SyncWindows.CanSync") {
				t.Errorf("upstream %s", f.Upstream)
			}
		})
	}
}

func TestSyncWindowPassesAValidFreeze(t *testing.T) {
	r := runOn(t, map[string]string{"shop.k8s.yaml": docs(projectWithWindow(freeze("0 0 20 12 *", "336h", "Europe/Berlin")), clusterSecret, application)}, nil)
	noFindings(t, r)
	if r.Counted["syncWindows"] != 1 {
		t.Errorf("counted %v", r.Counted)
	}
}

func TestSyncWindowDurationArgoCDCannotParse(t *testing.T) {
	r := runOn(t, map[string]string{"shop.k8s.yaml": docs(projectWithWindow(freeze("0 0 20 12 *", "14d", "UTC")), clusterSecret, application)}, nil)
	f := onlyFinding(t, r, "sync-window-invalid")
	if f.Path != "/spec/syncWindows/0/duration" {
		t.Errorf("path %s", f.Path)
	}
	mustContain(t, f.Message, "cannot parse duration '14d'")
}

func TestSyncWindowTimeZoneArgoCDReplacesWithUTC(t *testing.T) {
	r := runOn(t, map[string]string{"shop.k8s.yaml": docs(projectWithWindow(freeze("0 0 20 12 *", "336h", "Europe/Atlantis")), clusterSecret, application)}, nil)
	f := onlyFinding(t, r, "sync-window-timezone-ignored")
	mustContain(t, f.Message, `time zone "Europe/Atlantis"`, "in utc instead")
	if !strings.HasSuffix(f.Upstream, "v1alpha1.SyncWindow.Validate") {
		t.Errorf("upstream %s", f.Upstream)
	}
}

func TestSyncWindowKindArgoCDRefuses(t *testing.T) {
	window := "    - kind: freeze\n      schedule: \"0 0 20 12 *\"\n      duration: 1h\n      applications: [shop-*]\n"
	r := runOn(t, map[string]string{"shop.k8s.yaml": docs(projectWithWindow(window), clusterSecret, application)}, nil)
	f := onlyFinding(t, r, "sync-window-invalid")
	mustContain(t, f.Message, "kind 'freeze' mismatch")
}

func TestSyncWindowActiveAtNow(t *testing.T) {
	files := map[string]string{"shop.k8s.yaml": docs(projectWithWindow(freeze("0 0 20 12 *", "336h", "UTC")), clusterSecret, application)}
	inside := time.Date(2026, 12, 24, 12, 0, 0, 0, time.UTC)
	r := runOn(t, files, &inside)
	f := onlyFinding(t, r, "sync-window-active")
	mustContain(t, f.Message, "at 2026-12-24T12:00:00Z", "deny window", "shop-prod-01")
	if r.Counted["syncWindowsActiveAtNow"] != 1 || r.Counted["syncWindowsEvaluatedAtNow"] != 1 {
		t.Errorf("counted %v", r.Counted)
	}

	outside := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	r = runOn(t, files, &outside)
	noFindings(t, r)
	if r.Counted["syncWindowsActiveAtNow"] != 0 || r.Counted["syncWindowsEvaluatedAtNow"] != 1 {
		t.Errorf("counted %v", r.Counted)
	}
}

func TestSyncWindowNamesTheApplicationSetsOfItsProject(t *testing.T) {
	appSet := func(name, project string) string {
		return "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: " + name + ", namespace: argocd}\n" +
			"spec:\n  generators: [{list: {elements: []}}]\n  template:\n    metadata: {name: x}\n    spec:\n      project: " + project +
			"\n      destination: {name: prod-01, namespace: shop}\n      source: {repoURL: https://github.com/acme/releases.git, path: x}\n"
	}
	files := map[string]string{"shop.k8s.yaml": docs(projectWithWindow(freeze("@weekly", "1h", "UTC")), appSet("shop", "shop"), appSet("other", "other"), application), "fleet.k8s.yaml": clusterSecret}
	f := onlyFinding(t, runOn(t, files, nil), "sync-window-invalid")
	mustContain(t, f.Message, "(shop-prod-01) and those of the 1 applicationsets, which are not generated here")
}

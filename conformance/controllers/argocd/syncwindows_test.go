package argocd

import (
	"strings"
	"testing"
	"time"

	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
)

func projectWithWindow(window *v1alpha1.SyncWindow) *v1alpha1.AppProject {
	p := hubProject()
	p.Spec.SyncWindows = v1alpha1.SyncWindows{window}
	return p
}

func freeze(schedule, duration, zone string) *v1alpha1.SyncWindow {
	return &v1alpha1.SyncWindow{Kind: "deny", Schedule: schedule, Duration: duration, TimeZone: zone, Applications: []string{"shop-*"}}
}

func shop(project *v1alpha1.AppProject, more ...manifestObject) map[string][]manifestObject {
	return map[string][]manifestObject{"shop.k8s.yaml": append(objs(project, clusterSecret(), application()), more...)}
}

func TestSyncWindowSchedulesArgoCDCannotParse(t *testing.T) {
	// v3.5.1 builds its parser with Minute|Hour|Dom|Month|Dow and no Descriptor: no @weekly,
	// and day-of-week runs 0-6.
	for _, schedule := range []string{"@weekly", "0 0 * * 7", "0 0 20 12"} {
		t.Run(schedule, func(t *testing.T) {
			r := runOn(t, shop(projectWithWindow(freeze(schedule, "336h", "UTC"))), nil)
			f := onlyFinding(t, r, "sync-window-invalid")
			if f.Kind != "AppProject" || f.Name != "shop" || f.Path != "/spec/syncWindows/0/schedule" {
				t.Errorf("finding on %s %s %s", f.Kind, f.Name, f.Path)
			}
			mustContain(t, f.Message, "cannot parse schedule '"+schedule+"'", "refuses every sync of the 1 applications it matches (shop-prod-01)")
			if !strings.HasSuffix(f.Upstream, "v1alpha1.SyncWindows.CanSync") {
				t.Errorf("upstream %s", f.Upstream)
			}
		})
	}
}

func TestSyncWindowPassesAValidFreeze(t *testing.T) {
	r := runOn(t, shop(projectWithWindow(freeze("0 0 20 12 *", "336h", "Europe/Berlin"))), nil)
	noFindings(t, r)
	if r.Counted["syncWindows"] != 1 {
		t.Errorf("counted %v", r.Counted)
	}
}

func TestSyncWindowDurationArgoCDCannotParse(t *testing.T) {
	f := onlyFinding(t, runOn(t, shop(projectWithWindow(freeze("0 0 20 12 *", "14d", "UTC"))), nil), "sync-window-invalid")
	if f.Path != "/spec/syncWindows/0/duration" {
		t.Errorf("path %s", f.Path)
	}
	mustContain(t, f.Message, "cannot parse duration '14d'")
}

func TestSyncWindowTimeZoneArgoCDReplacesWithUTC(t *testing.T) {
	f := onlyFinding(t, runOn(t, shop(projectWithWindow(freeze("0 0 20 12 *", "336h", "Europe/Atlantis"))), nil), "sync-window-timezone-ignored")
	mustContain(t, f.Message, `time zone "Europe/Atlantis"`, "in utc instead")
	if !strings.HasSuffix(f.Upstream, "v1alpha1.SyncWindow.Validate") {
		t.Errorf("upstream %s", f.Upstream)
	}
}

func TestSyncWindowKindArgoCDRefuses(t *testing.T) {
	w := freeze("0 0 20 12 *", "1h", "")
	w.Kind = "freeze"
	f := onlyFinding(t, runOn(t, shop(projectWithWindow(w)), nil), "sync-window-invalid")
	mustContain(t, f.Message, "kind 'freeze' mismatch")
}

func TestSyncWindowActiveAtNow(t *testing.T) {
	files := shop(projectWithWindow(freeze("0 0 20 12 *", "336h", "UTC")))
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

// A window matches the Applications ApplicationSets generate too: Argo CD's own generators run.
func TestSyncWindowNamesTheGeneratedApplications(t *testing.T) {
	files := shop(projectWithWindow(freeze("@weekly", "1h", "UTC")), appSet("shop-ring", "shop", map[string]string{"ring": "early"}, "shop-{{ .name }}-ring"))
	f := onlyFinding(t, runOn(t, files, nil), "sync-window-invalid")
	mustContain(t, f.Message, "the 2 applications it matches (shop-prod-01, shop-prod-01-ring)")
}

package argocd

import (
	"fmt"
	"strings"
	"time"
	_ "unsafe" // go:linkname

	"github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1"
)

// syncWindowActive is Argo CD's own SyncWindow.active(currentTime): the body of the exported
// SyncWindow.Active(), which only ever passes time.Now(). Linked, not copied, so --now is
// evaluated by exactly the v3.5.1 code (cron parser, duration, time-zone offset). Upstream takes
// the time zone's offset at time.Now(), not at currentTime: a --now across a daylight-saving
// change from today is off by that hour, as Argo CD itself would be.
//
//go:linkname syncWindowActive github.com/argoproj/argo-cd/v3/pkg/apis/application/v1alpha1.SyncWindow.active
func syncWindowActive(w v1alpha1.SyncWindow, currentTime time.Time) (bool, error)

// checkSyncWindows evaluates every AppProject sync window with Argo CD's own code.
//   - SyncWindows.CanSync, what controller/sync.go syncWindowPreventsSync calls for the windows
//     matching an Application: an error there blocks every sync of those Applications.
//   - SyncWindow.Validate, what the API server and CLI run on a project: it refuses a kind other
//     than allow/deny, and silently replaces a time zone it cannot load with UTC.
//   - with now set, whether the window is active at that instant.
func checkSyncWindows(r *Report, fleet *Fleet, apps []*AppInstance, now *time.Time) {
	for _, p := range fleet.Projects {
		for i, window := range p.Value.Spec.SyncWindows {
			if window == nil {
				continue
			}
			r.count("syncWindows", 1)
			path := fmt.Sprintf("/spec/syncWindows/%d", i)
			matching := scope(matchingApps(p.Value.Name, window, apps))
			single := v1alpha1.SyncWindows{window.DeepCopy()}
			if _, err := single.CanSync(false, nil); err != nil {
				r.add(p.Object, path+windowField(err), "sync-window-invalid",
					fmt.Sprintf("argo cd refuses every sync of %s: %s", matching, err),
					upstream("pkg/apis/application/v1alpha1", "SyncWindows.CanSync"))
				continue
			}
			validated := window.DeepCopy()
			if err := validated.Validate(); err != nil {
				r.add(p.Object, path, "sync-window-invalid",
					fmt.Sprintf("argo cd's api server and cli refuse this window: %s; the controller treats it as neither allow nor deny", err),
					upstream("pkg/apis/application/v1alpha1", "SyncWindow.Validate"))
				continue
			}
			if window.TimeZone != "" && validated.TimeZone != window.TimeZone {
				r.add(p.Object, path+"/timeZone", "sync-window-timezone-ignored",
					fmt.Sprintf("argo cd cannot load time zone %q and evaluates schedule %q in utc instead", window.TimeZone, window.Schedule),
					upstream("pkg/apis/application/v1alpha1", "SyncWindow.Validate"))
			}
			if now != nil {
				evaluateAt(r, p, path, *window, matching, *now)
			}
		}
	}
}

func evaluateAt(r *Report, p *Decoded[v1alpha1.AppProject], path string, window v1alpha1.SyncWindow, matching string, now time.Time) {
	r.count("syncWindowsEvaluatedAtNow", 1)
	active, err := syncWindowActive(window, now)
	if err != nil || !active {
		return
	}
	r.count("syncWindowsActiveAtNow", 1)
	effect := "refuses automated and manual syncs of"
	if window.ManualSync {
		effect = "refuses automated syncs (manual ones allowed) of"
	}
	if window.Kind == "allow" {
		effect = "allows syncs of"
	}
	r.add(p.Object, path, "sync-window-active",
		fmt.Sprintf("at %s argo cd considers this %s window (%s, %s, %s) active: it %s %s",
			now.UTC().Format(time.RFC3339), window.Kind, window.Schedule, window.Duration, zoneOf(window), effect, matching),
		upstream("pkg/apis/application/v1alpha1", "SyncWindow.active"))
}

func zoneOf(w v1alpha1.SyncWindow) string {
	if w.TimeZone == "" {
		return "UTC"
	}
	return w.TimeZone
}

// matchingApps names the Applications of the project the window applies to
// (SyncWindows.Matches, the controller's own selection).
func matchingApps(project string, window *v1alpha1.SyncWindow, apps []*AppInstance) []string {
	windows := v1alpha1.SyncWindows{window}
	var names []string
	for _, a := range apps {
		if a.App.Spec.GetProject() == project && windows.Matches(&a.App) != nil {
			names = append(names, a.App.Name)
		}
	}
	return names
}

// scope describes the Applications, written or generated, a window applies to.
func scope(names []string) string {
	s := fmt.Sprintf("the %d applications it matches", len(names))
	switch {
	case len(names) > 5:
		s += fmt.Sprintf(" (%s and %d more)", strings.Join(names[:5], ", "), len(names)-5)
	case len(names) > 0:
		s += " (" + strings.Join(names, ", ") + ")"
	}
	return s
}

func windowField(err error) string {
	switch {
	case strings.Contains(err.Error(), "cannot parse schedule"):
		return "/schedule"
	case strings.Contains(err.Error(), "cannot parse duration"):
		return "/duration"
	}
	return ""
}

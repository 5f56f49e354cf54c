package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/argoproj/argo-rollouts/metricproviders/webmetric"
	"github.com/argoproj/argo-rollouts/pkg/apis/rollouts/v1alpha1"
)

const (
	caseJSON200    = "json-200"
	caseNonJSON200 = "non-json-200"
	caseJSON500    = "json-500"
	caseWebNoValue = "json-200-without-the-field"
	tokenPath      = "/__token__"
)

// webServer is a loopback httptest server playing the metric's endpoint: it answers every
// request with the answer set last, so nothing leaves the machine.
type webServer struct {
	server *httptest.Server
	mu     sync.Mutex
	status int
	ctype  string
	body   string
}

func newWebServer() *webServer {
	w := &webServer{}
	w.server = httptest.NewServer(http.HandlerFunc(w.serve))
	return w
}

func (w *webServer) close() { w.server.Close() }

func (w *webServer) serve(rw http.ResponseWriter, req *http.Request) {
	if req.URL.Path == tokenPath {
		rw.Header().Set("Content-Type", "application/json")
		_, _ = rw.Write([]byte(`{"access_token":"stand-in-token","token_type":"bearer","expires_in":3600}`))
		return
	}
	w.mu.Lock()
	status, ctype, body := w.status, w.ctype, w.body
	w.mu.Unlock()
	rw.Header().Set("Content-Type", ctype)
	rw.WriteHeader(status)
	_, _ = rw.Write([]byte(body))
}

func (w *webServer) answer(status int, ctype, body string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.status, w.ctype, w.body = status, ctype, body
}

// local points the metric's http(s) URL (and OAuth2 token URL) at the loopback server, keeping
// path and query. Any other URL is kept: http.NewRequest or the client refuses it in Provider.Run,
// as live, without a connection.
func (w *webServer) local(m v1alpha1.Metric) v1alpha1.Metric {
	m = *m.DeepCopy()
	base, _ := url.Parse(w.server.URL)
	if u, err := url.Parse(m.Provider.Web.URL); err == nil && u.Host != "" && (u.Scheme == "http" || u.Scheme == "https") {
		u.Scheme, u.Host = base.Scheme, base.Host
		m.Provider.Web.URL = u.String()
	}
	if m.Provider.Web.Authentication.OAuth2.TokenURL != "" {
		m.Provider.Web.Authentication.OAuth2.TokenURL = w.server.URL + tokenPath
	}
	return m
}

var simpleJSONPath = regexp.MustCompile(`^\{\s*\$?((\.[A-Za-z0-9_-]+)*)\s*\}$`)

// healthyBodies are JSON documents that hold, where the metric's jsonPath points, each value the
// condition could be waiting for: its string literals, the stand-in argument value, numbers either
// side of its threshold, true.
func healthyBodies(m v1alpha1.Metric) []string {
	var leaves []any
	for _, match := range stringLiteral.FindAllStringSubmatch(m.SuccessCondition, -1) {
		leaves = append(leaves, match[1]+match[2])
	}
	below, above := aroundThreshold(threshold(m.SuccessCondition, m.FailureCondition))
	leaves = append(leaves, StandInValue, below, above, true)
	var fields []string
	jsonPath := m.Provider.Web.JSONPath
	if jsonPath == "" {
		jsonPath = "{$}"
	}
	if match := simpleJSONPath.FindStringSubmatch(jsonPath); match != nil && match[1] != "" {
		fields = strings.Split(strings.TrimPrefix(match[1], "."), ".")
	}
	bodies := make([]string, 0, len(leaves))
	for _, leaf := range leaves {
		doc := leaf
		for i := len(fields) - 1; i >= 0; i-- {
			doc = map[string]any{fields[i]: doc}
		}
		text, _ := json.Marshal(doc)
		bodies = append(bodies, string(text))
	}
	return bodies
}

type webCase struct {
	name, ctype, body string
	status            int
}

// runWeb runs the metric through rollouts' web provider (Provider.Run -> parseResponse ->
// evaluate.EvaluateResult) against the loopback server, once per recorded answer.
func runWeb(obj Object, metric v1alpha1.Metric, r *Report, path string, w *webServer, withNoValue bool) []Evaluation {
	m := w.local(metric)
	parser, err := webmetric.NewWebMetricJsonParser(m)
	if err != nil {
		r.Add(obj.Finding(path+"/provider/web/jsonPath", "metric-provider-invalid", upstream("metricproviders/webmetric", "NewWebMetricJsonParser"), "metric %q: rollouts cannot parse jsonPath %q: %v", m.Name, m.Provider.Web.JSONPath, err))
		return nil
	}
	client, err := webmetric.NewWebMetricHttpClient(m)
	if err != nil {
		r.Add(obj.Finding(path+"/provider/web", "metric-provider-invalid", upstream("metricproviders/webmetric", "NewWebMetricHttpClient"), "metric %q: rollouts cannot build its http client: %v", m.Name, err))
		return nil
	}
	provider := webmetric.NewWebMetricProvider(quietLog(), client, parser)
	run := func(c webCase) v1alpha1.Measurement {
		w.answer(c.status, c.ctype, c.body)
		return provider.Run(&v1alpha1.AnalysisRun{}, m)
	}
	runFn := upstream("metricproviders/webmetric", "Provider.Run")
	var evals []Evaluation
	record := func(c webCase, ms v1alpha1.Measurement) {
		evals = append(evals, Evaluation{Source: obj.Source, Kind: obj.Kind, Namespace: obj.Namespace, Name: obj.Name, Metric: m.Name, Provider: "web", Case: c.name, Phase: string(ms.Phase), Value: ms.Value, Message: ms.Message})
	}
	// The healthy answer: the first body that passes, else the first one tried.
	bodies := healthyBodies(m)
	var healthy v1alpha1.Measurement
	var healthyCase webCase
	for i, body := range bodies {
		c := webCase{caseJSON200, "application/json", body, http.StatusOK}
		ms := run(c)
		if i == 0 || ms.Phase == v1alpha1.AnalysisPhaseSuccessful {
			healthy, healthyCase = ms, c
		}
		if ms.Phase == v1alpha1.AnalysisPhaseSuccessful {
			break
		}
	}
	record(healthyCase, healthy)
	switch healthy.Phase {
	case v1alpha1.AnalysisPhaseSuccessful:
	case v1alpha1.AnalysisPhaseError:
		r.Add(obj.Finding(path, "metric-error-on-answer", runFn, "metric %q: on a json 200 answer (%s) the measurement ends in Error: %s", m.Name, healthyCase.body, healthy.Message))
	default:
		r.Add(obj.Finding(path, "healthy-answer-not-passing", runFn, "metric %q: no json 200 answer tried (%s) passes success condition %q: phase %s", m.Name, strings.Join(bodies, ", "), m.SuccessCondition, healthy.Phase))
	}
	others := []webCase{
		{caseNonJSON200, "text/html", "<html>ok</html>", http.StatusOK},
		// A 5xx is an Error by design (MarkMeasurementError on a non-2xx code); it is recorded, not
		// reported: no template can change it, consecutiveErrorLimit governs it.
		{caseJSON500, "application/json", `{"error":"internal"}`, http.StatusInternalServerError},
	}
	if withNoValue {
		others = append(others, webCase{caseWebNoValue, "application/json", `{}`, http.StatusOK})
	}
	for _, c := range others {
		ms := run(c)
		record(c, ms)
		// An answer-independent Error (a bad URL) is reported once, on the JSON 200.
		if c.name == caseNonJSON200 && ms.Phase == v1alpha1.AnalysisPhaseError && healthy.Phase != v1alpha1.AnalysisPhaseError {
			r.Add(obj.Finding(path, "metric-error-on-answer", runFn, "metric %q: on a non-json 200 answer the measurement ends in Error: %s", m.Name, ms.Message))
		}
	}
	return evals
}

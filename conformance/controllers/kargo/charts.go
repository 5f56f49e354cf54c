package kargo

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/go-containerregistry/pkg/registry"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	helmregistry "helm.sh/helm/v3/pkg/registry"
	"helm.sh/helm/v3/pkg/repo"
)

// ChartWorld serves every chart repository and OCI registry the output names, under its real
// URL: a CONNECT proxy (HTTPS_PROXY, which Helm's and oras' transports follow through
// http.ProxyFromEnvironment) hands every connection to one local HTTPS server whose certificate,
// made per host name, is signed by a CA of this process (SSL_CERT_FILE, which Go's x509 reads for
// the system roots). The server answers a classic chart repository (index.yaml and packaged
// charts) for https hosts and an OCI registry (go-containerregistry's in-memory registry, the
// reference implementation of the distribution API) for OCI hosts. Go's clients read both
// variables once, so the proxy and the server are started once per process and serve the
// ChartWorld made last.
type ChartWorld struct {
	dir string
	mu  sync.Mutex
	oci map[string]http.Handler // host -> registry
}

// chartServer is the proxy and the HTTPS server of the process.
type chartServer struct {
	dir     string
	ca      *x509.Certificate
	caKey   *ecdsa.PrivateKey
	certs   sync.Map // host -> *tls.Certificate
	server  *http.Server
	tlsAddr string
	proxy   *http.Server
	mu      sync.Mutex
	current *ChartWorld
}

var (
	servers     *chartServer
	serversErr  error
	serversOnce sync.Once
)

// NewChartWorld serves charts from dir (and points this process at the servers the first time).
func NewChartWorld(dir string) (*ChartWorld, error) {
	serversOnce.Do(func() { servers, serversErr = startChartServer(dir) })
	if serversErr != nil {
		return nil, serversErr
	}
	w := &ChartWorld{dir: dir, oci: map[string]http.Handler{}}
	if err := os.MkdirAll(filepath.Join(dir, "www"), 0o755); err != nil {
		return nil, err
	}
	servers.mu.Lock()
	servers.current = w
	servers.mu.Unlock()
	return w, nil
}

func startChartServer(dir string) (*chartServer, error) {
	w := &chartServer{dir: filepath.Join(os.TempDir(), fmt.Sprintf("kargo-conformance-ca-%d", os.Getpid()))}
	if err := os.MkdirAll(w.dir, 0o755); err != nil {
		return nil, err
	}
	if err := w.makeCA(); err != nil {
		return nil, err
	}
	tlsListener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	proxyListener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	w.tlsAddr = tlsListener.Addr().String()
	w.server = &http.Server{
		Handler:           http.HandlerFunc(w.serveHost),
		TLSConfig:         &tls.Config{GetCertificate: w.certificate, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: time.Minute,
		ErrorLog:          quietLog(),
	}
	go func() { _ = w.server.ServeTLS(tlsListener, "", "") }()
	w.proxy = &http.Server{Handler: http.HandlerFunc(w.serveProxy), ReadHeaderTimeout: time.Minute, ErrorLog: quietLog()}
	go func() { _ = w.proxy.Serve(proxyListener) }()
	proxyURL := "http://" + proxyListener.Addr().String()
	for k, v := range map[string]string{"HTTPS_PROXY": proxyURL, "https_proxy": proxyURL, "HTTP_PROXY": proxyURL, "http_proxy": proxyURL,
		"NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost", "SSL_CERT_FILE": filepath.Join(w.dir, "ca.pem")} {
		if err := os.Setenv(k, v); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// Close stops serving this world's charts (the servers stay for the next world of the process).
func (w *ChartWorld) Close() {
	servers.mu.Lock()
	defer servers.mu.Unlock()
	if servers.current == w {
		servers.current = nil
	}
}

func (w *chartServer) makeCA() error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "conformance suite CA (this run only)"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	if w.ca, err = x509.ParseCertificate(der); err != nil {
		return err
	}
	w.caKey = key
	return os.WriteFile(filepath.Join(w.dir, "ca.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
}

// certificate makes the certificate of the host a client asks for (SNI), signed by the CA.
func (w *chartServer) certificate(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
	if c, ok := w.certs.Load(hello.ServerName); ok {
		return c.(*tls.Certificate), nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()),
		Subject:      pkix.Name{CommonName: hello.ServerName},
		DNSNames:     []string{hello.ServerName},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, w.ca, &key.PublicKey, w.caKey)
	if err != nil {
		return nil, err
	}
	c := &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	w.certs.Store(hello.ServerName, c)
	return c, nil
}

// serveProxy tunnels CONNECT to the HTTPS server; a plain request through the proxy is answered
// by the same handler.
func (w *chartServer) serveProxy(rw http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		w.serveHost(rw, r)
		return
	}
	upstream, err := net.Dial("tcp", w.tlsAddr)
	if err != nil {
		http.Error(rw, err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := rw.(http.Hijacker)
	if !ok {
		http.Error(rw, "no hijacking", http.StatusInternalServerError)
		return
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	_, _ = conn.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
	go func() {
		_, _ = io.Copy(upstream, buf)
		_ = upstream.Close()
	}()
	_, _ = io.Copy(conn, upstream)
	_ = conn.Close()
}

func (s *chartServer) serveHost(rw http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	w := s.current
	s.mu.Unlock()
	if w == nil {
		http.NotFound(rw, r)
		return
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	w.mu.Lock()
	reg := w.oci[host]
	w.mu.Unlock()
	if reg != nil {
		reg.ServeHTTP(rw, r)
		return
	}
	http.FileServer(http.Dir(filepath.Join(w.dir, "www", host))).ServeHTTP(rw, r)
}

// ChartRef is a chart a Warehouse subscribes to.
type ChartRef struct {
	RepoURL string // https://host/path, or oci://host/path/name
	Name    string // for a classic repository
}

// Publish packages a minimal chart at each version and serves it at ref: in the classic
// repository's index.yaml, or pushed to the OCI registry with Helm's own registry client.
func (w *ChartWorld) Publish(ref ChartRef, versions ...string) error {
	u, err := url.Parse(ref.RepoURL)
	if err != nil || u.Host == "" {
		return fmt.Errorf("chart repository %q has no host", ref.RepoURL)
	}
	if u.Scheme == "oci" {
		return w.publishOCI(u, versions)
	}
	return w.publishClassic(u, ref.Name, versions)
}

func (w *ChartWorld) publishOCI(u *url.URL, versions []string) error {
	w.mu.Lock()
	if w.oci[u.Hostname()] == nil {
		w.oci[u.Hostname()] = registry.New(registry.Logger(quietLog()))
	}
	w.mu.Unlock()
	name := path.Base(u.Path)
	client, err := helmregistry.NewClient(helmregistry.ClientOptCredentialsFile(filepath.Join(w.dir, "registry-config.json")),
		helmregistry.ClientOptWriter(io.Discard))
	if err != nil {
		return err
	}
	for _, v := range versions {
		data, err := w.pack(name, v)
		if err != nil {
			return err
		}
		ref := strings.TrimPrefix(u.String(), "oci://") + ":" + v
		if _, err := client.Push(data, ref, helmregistry.PushOptStrictMode(false)); err != nil {
			return fmt.Errorf("pushing chart %s: %w", ref, err)
		}
	}
	return nil
}

func (w *ChartWorld) publishClassic(u *url.URL, name string, versions []string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	dir := filepath.Join(w.dir, "www", u.Hostname(), filepath.FromSlash(u.Path))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	indexFile := filepath.Join(dir, "index.yaml")
	index := repo.NewIndexFile()
	if existing, err := repo.LoadIndexFile(indexFile); err == nil {
		index = existing
	}
	base := strings.TrimSuffix(u.String(), "/")
	for _, v := range versions {
		data, err := w.pack(name, v)
		if err != nil {
			return err
		}
		file := fmt.Sprintf("%s-%s.tgz", name, v)
		if err := os.WriteFile(filepath.Join(dir, file), data, 0o644); err != nil {
			return err
		}
		if index.Has(name, v) {
			continue
		}
		if err := index.MustAdd(&chart.Metadata{APIVersion: chart.APIVersionV2, Name: name, Version: v}, file, base, digestOf(file)); err != nil {
			return err
		}
	}
	index.SortEntries()
	return index.WriteFile(indexFile, 0o644)
}

// pack is a packaged chart whose one template shows what it was rendered with: its name and
// version and every value (so a rendered release shows what reached it).
func (w *ChartWorld) pack(name, version string) ([]byte, error) {
	c := &chart.Chart{
		Metadata:  &chart.Metadata{APIVersion: chart.APIVersionV2, Name: name, Version: version},
		Templates: []*chart.File{{Name: "templates/configmap.yaml", Data: []byte(chartTemplate)}},
	}
	dir, err := os.MkdirTemp(w.dir, "pack-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file, err := chartutil.Save(c, dir)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(file)
}

// chartTemplate is the one template of every chart the suite makes.
const chartTemplate = `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-{{ .Chart.Name }}
data:
  chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | quote }}
  values: {{ toYaml .Values | quote }}
`

// quietLog discards what the servers log (every closed tunnel, every registry request).
func quietLog() *log.Logger { return log.New(io.Discard, "", 0) }

// Cleanup removes the process's CA (call it when the process is done with every world).
func Cleanup() {
	if servers != nil {
		_ = os.RemoveAll(servers.dir)
	}
}

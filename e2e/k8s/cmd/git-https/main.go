// Command git-https serves the bare repositories under a directory over https with git's own
// smart-HTTP CGI program (git http-backend), so that the e2e suite's release and source
// repositories are reached the way the library requires (https URLs) with the suite's test CA.
//
// usage: git-https -listen 127.0.0.1:8443 -root <dir of *.git> -cert <pem> -key <pem> -git <git binary>
package main

import (
	"flag"
	"log"
	"net/http"
	"net/http/cgi"
	"os/exec"
	"path/filepath"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:8443", "address to listen on")
	root := flag.String("root", "", "directory holding the bare repositories")
	cert := flag.String("cert", "", "TLS certificate (PEM)")
	key := flag.String("key", "", "TLS key (PEM)")
	git := flag.String("git", "git", "git binary whose http-backend serves the repositories")
	flag.Parse()
	gitPath, err := exec.LookPath(*git)
	if err != nil {
		log.Fatalf("git-https: %v", err)
	}
	abs, err := filepath.Abs(*root)
	if err != nil {
		log.Fatalf("git-https: %v", err)
	}
	backend := &cgi.Handler{
		Path: gitPath,
		Args: []string{"http-backend"},
		Env: []string{
			"GIT_PROJECT_ROOT=" + abs,
			// every repository under the root is served, pushes included (no auth: loopback only)
			"GIT_HTTP_EXPORT_ALL=1",
			"REMOTE_USER=e2e",
		},
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.Printf("%s %s", r.Method, r.URL.RequestURI())
		backend.ServeHTTP(w, r)
	})
	log.Printf("git-https: serving %s on https://%s", abs, *listen)
	log.Fatal(http.ListenAndServeTLS(*listen, *cert, *key, handler))
}

// Command parsers is the Go parsers the library's checks call at synth time, compiled to
// WebAssembly (GOOS=wasip1, -buildmode=c-shared: a reactor whose exports the host calls
// synchronously). Every value the library writes that a Go program of Argo CD, Kargo or Argo
// Rollouts parses is decided here by the same package at the same version as the controller:
// see README.md for the list and docs/go-parsers.md for the design.
//
// The protocol is one JSON request in, one JSON answer out: the host asks for a buffer of n
// bytes (alloc), writes the request there, calls call(n), which returns the answer's length,
// and reads the answer at result(). The host is src/util/go-parsers.ts.
package main

import (
	"encoding/json"
	"fmt"
	"unsafe"
)

// Request is one value to decide: which parser (Op), the value, and the parser's options.
type Request struct {
	Op    string `json:"op"`
	Value string `json:"value"`
	// Env names the environment an expression is compiled in (see kargo.go and rollouts.go).
	Env string `json:"env,omitempty"`
}

// Answer is Go's verdict: Error is the parser's own message (empty when Go accepts the value);
// the other fields are what the parsed value says, for the ops that report it.
type Answer struct {
	Error string `json:"error,omitempty"`
	// Cron is the parsed schedule (op cron).
	Cron *CronSpec `json:"cron,omitempty"`
	// CronFields are the fields of a refused schedule the parser refuses on their own (op cron).
	CronFields []CronFieldError `json:"cronFields,omitempty"`
}

var handlers = map[string]func(Request) Answer{
	"cron":               cronAnswer,
	"regexp":             regexpAnswer,
	"semver":             semverAnswer,
	"timezone":           timezoneAnswer,
	"glob":               globAnswer,
	"jsonpath":           jsonPathAnswer,
	"kargo-template":     kargoTemplateAnswer,
	"kargo-when":         kargoWhenAnswer,
	"rollouts-condition": rolloutsConditionAnswer,
}

// answer decides one request; a panic in a parser is an answer too, never a crash of the host.
func answer(raw []byte) (a Answer) {
	defer func() {
		if r := recover(); r != nil {
			a = Answer{Error: fmt.Sprintf("the Go parser panicked: %v", r)}
		}
	}()
	var req Request
	if err := json.Unmarshal(raw, &req); err != nil {
		return Answer{Error: fmt.Sprintf("bad request: %v", err)}
	}
	h, ok := handlers[req.Op]
	if !ok {
		return Answer{Error: fmt.Sprintf("bad request: unknown op %q", req.Op)}
	}
	return h(req)
}

// handle is the whole protocol on bytes, for the exports and for the Go tests alike.
func handle(raw []byte) []byte {
	out, err := json.Marshal(answer(raw))
	if err != nil {
		out = []byte(`{"error":"cannot encode the answer"}`)
	}
	return out
}

var (
	request []byte
	result  []byte
)

//go:wasmexport alloc
func alloc(n int32) unsafe.Pointer {
	request = make([]byte, n+1) // never empty, so the pointer is valid
	return unsafe.Pointer(&request[0])
}

//go:wasmexport call
func call(n int32) int32 {
	result = handle(request[:n])
	return int32(len(result))
}

//go:wasmexport result
func resultAt() unsafe.Pointer {
	if len(result) == 0 {
		return nil
	}
	return unsafe.Pointer(&result[0])
}

func main() {}

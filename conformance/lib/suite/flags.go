package suite

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

// Flags are the protocol's --manifests, --before, --now and --values; a command adds its own to
// Set before Parse.
type Flags struct {
	Set       *flag.FlagSet
	Manifests string
	Before    string
	Values    string
	// Now is --now, parsed (nil when not given): the instant a command that evaluates time uses;
	// the others accept it and ignore it.
	Now     *time.Time
	now     string
	command string
	stderr  io.Writer
}

// NewFlags defines the protocol's flags of command; valuesUsage says what the command does with
// --values. Parse errors and usage go to stderr.
func NewFlags(command, valuesUsage string, stderr io.Writer) *Flags {
	f := &Flags{Set: flag.NewFlagSet(command, flag.ContinueOnError), command: command, stderr: stderr}
	f.Set.SetOutput(stderr)
	f.Set.StringVar(&f.Manifests, "manifests", "", "a directory of synthesized YAML")
	f.Set.StringVar(&f.Before, "before", "", "the same platform synthesized before a change")
	f.Set.StringVar(&f.now, "now", "", "an RFC 3339 instant at which to evaluate time (commands that evaluate none ignore it)")
	f.Set.StringVar(&f.Values, "values", "", valuesUsage)
	return f
}

// Parse reads argv and checks that exactly one of --manifests and --values is given and, with
// --manifests, that --before is a directory. On failure it has said why on stderr and returns
// false: the command exits ExitFailed.
func (f *Flags) Parse(argv []string) bool {
	if err := f.Set.Parse(argv); err != nil {
		return false // the flag package printed why
	}
	if (f.Manifests == "") == (f.Values == "") || f.Set.NArg() > 0 {
		Fail(f.command, errors.New("give exactly one of --manifests DIR or --values FILE"), f.stderr)
		return false
	}
	if f.now != "" {
		t, err := time.Parse(time.RFC3339, f.now)
		if err != nil {
			Fail(f.command, fmt.Errorf("--now %s is not an RFC 3339 time: %w", f.now, err), f.stderr)
			return false
		}
		f.Now = &t
	}
	if f.Values == "" && f.Before != "" {
		if info, err := os.Stat(f.Before); err != nil || !info.IsDir() {
			Fail(f.command, fmt.Errorf("--before %s is not a readable directory", f.Before), f.stderr)
			return false
		}
	}
	return true
}

// Value is one entry of a --values file: a value the library judged, and its verdict.
type Value struct {
	Kind     string `json:"kind"`
	Value    string `json:"value"`
	Accepted bool   `json:"accepted"`
}

// ReadValues reads a --values file.
func ReadValues(file string) ([]Value, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var values []Value
	if err := json.Unmarshal(data, &values); err != nil {
		return nil, fmt.Errorf("%s is not a json array of {kind, value, accepted}: %w", file, err)
	}
	return values, nil
}

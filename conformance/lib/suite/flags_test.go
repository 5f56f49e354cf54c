package suite

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseNeedsExactlyOneOfManifestsAndValues(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		argv []string
		ok   bool
		err  string
	}{
		{[]string{"--manifests", dir}, true, ""},
		{[]string{"--values", "v.json", "--before", "/missing"}, true, ""},
		{[]string{"--manifests", dir, "--before", dir}, true, ""},
		{nil, false, "cmd: give exactly one of --manifests DIR or --values FILE\n"},
		{[]string{"--manifests", dir, "--values", "v.json"}, false, "cmd: give exactly one of --manifests DIR or --values FILE\n"},
		{[]string{"--manifests", dir, "extra"}, false, "cmd: give exactly one of --manifests DIR or --values FILE\n"},
		{[]string{"--manifests", dir, "--before", filepath.Join(dir, "missing")}, false, "cmd: --before " + filepath.Join(dir, "missing") + " is not a readable directory\n"},
		{[]string{"--nope"}, false, "flag provided but not defined: -nope\n"},
		{[]string{"--manifests", dir, "--now", "tomorrow"}, false, "cmd: --now tomorrow is not an RFC 3339 time"},
	} {
		var stderr bytes.Buffer
		f := NewFlags("cmd", "values usage", &stderr)
		ok := f.Parse(c.argv)
		if ok != c.ok || !strings.HasPrefix(stderr.String(), c.err) || (c.err == "") != (stderr.Len() == 0) {
			t.Errorf("%v: ok %v, stderr %q", c.argv, ok, stderr.String())
		}
	}
}

func TestNowIsParsedForEveryCommand(t *testing.T) {
	f := NewFlags("cmd", "values usage", &bytes.Buffer{})
	if !f.Parse([]string{"--manifests", t.TempDir(), "--now", "2026-12-24T12:00:00+01:00"}) || f.Now == nil || f.Now.UTC().Hour() != 11 {
		t.Errorf("now %v", f.Now)
	}
}

func TestCommandsAddTheirOwnFlags(t *testing.T) {
	f := NewFlags("cmd", "values usage", &bytes.Buffer{})
	extra := f.Set.String("schemas", "", "")
	if !f.Parse([]string{"--values", "v.json", "--schemas", "s.json"}) || *extra != "s.json" || f.Values != "v.json" {
		t.Errorf("schemas %q values %q", *extra, f.Values)
	}
}

func TestReadValues(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	_ = os.WriteFile(good, []byte(`[{"kind":"cron","value":"@weekly","accepted":true},{"kind":"regex","value":"(","accepted":false}]`), 0o644)
	values, err := ReadValues(good)
	if err != nil || len(values) != 2 || values[0] != (Value{Kind: "cron", Value: "@weekly", Accepted: true}) || values[1].Accepted {
		t.Errorf("values %+v, err %v", values, err)
	}
	bad := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(bad, []byte(`{"kind":"cron"}`), 0o644)
	if _, err := ReadValues(bad); err == nil || !strings.HasPrefix(err.Error(), bad+" is not a json array of {kind, value, accepted}: ") {
		t.Errorf("error %v", err)
	}
	if _, err := ReadValues(filepath.Join(dir, "missing.json")); !os.IsNotExist(err) {
		t.Errorf("error %v", err)
	}
}

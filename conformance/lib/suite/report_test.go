package suite

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteSortsFindingsInTheProtocolsOrder(t *testing.T) {
	r := NewReport("m")
	for _, f := range []Finding{
		{Source: "b", Kind: "A", Code: "x"},
		{Source: "a", Kind: "B", Namespace: "n", Name: "z", Path: "/p", Code: "y"},
		{Source: "a", Kind: "B", Namespace: "n", Name: "z", Path: "/p", Code: "x", Message: "2"},
		{Source: "a", Kind: "B", Namespace: "n", Name: "z", Path: "/p", Code: "x", Message: "1"},
		{Source: "a", Kind: "B", Namespace: "n", Name: "a", Path: "/q"},
		{Source: "a", Kind: "B", Namespace: "m", Name: "z"},
		{Source: "a", Kind: "A", Namespace: "z"},
	} {
		r.Add(f)
	}
	r.Count("objects")
	r.Count("objects")
	var out bytes.Buffer
	if err := r.Write(&out); err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, f := range r.Findings {
		order = append(order, f.Source+f.Kind+f.Namespace+f.Name+f.Path+f.Code+f.Message)
	}
	want := []string{"aAz", "aBmz", "aBna/q", "aBnz/px1", "aBnz/px2", "aBnz/py", "bAx"}
	if len(order) != len(want) {
		t.Fatalf("order %v", order)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
	if r.Counted["objects"] != 2 {
		t.Errorf("counted %v", r.Counted)
	}
}

func TestWritePrintsTheProtocolsDocument(t *testing.T) {
	r := NewReport("m")
	r.Count("b")
	r.Count("a")
	var out bytes.Buffer
	if err := r.Write(&out); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"module\": \"m\",\n  \"counted\": {\n    \"a\": 1,\n    \"b\": 1\n  },\n  \"findings\": []\n}\n"
	if out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
	r.Add(Finding{Message: "a <b> & c"})
	out.Reset()
	_ = r.Write(&out)
	if !bytes.Contains(out.Bytes(), []byte(`"message": "a <b> & c"`)) {
		t.Errorf("html escaped: %s", out.String())
	}
}

func TestEmbeddingReportKeepsItsFieldsFirst(t *testing.T) {
	v := struct {
		Report
		Extra []string `json:"extra"`
	}{Report: *NewReport("m"), Extra: []string{"x"}}
	var out bytes.Buffer
	if err := Encode(&out, v); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"module\": \"m\",\n  \"counted\": {},\n  \"findings\": [],\n  \"extra\": [\n    \"x\"\n  ]\n}\n"
	if out.String() != want {
		t.Errorf("printed %q", out.String())
	}
}

type failing struct{}

func (failing) Write(io.Writer) error { return errors.New("disk full") }

// The protocol fixes the numbers: 0 when it ran, 2 on its own failure.
func TestFinishExitsRanOrFailedWithTheReasonOnStderr(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Finish("cmd", NewReport("m"), &stdout, &stderr); code != 0 || stderr.Len() != 0 || stdout.Len() == 0 {
		t.Errorf("code %d, stderr %q", code, stderr.String())
	}
	stdout.Reset()
	if code := Finish("cmd", failing{}, &stdout, &stderr); code != 2 || stderr.String() != "cmd: disk full\n" {
		t.Errorf("code %d, stderr %q", code, stderr.String())
	}
}

func TestFinishWithoutValuesReadsTheFileAndPrintsTheEmptyReport(t *testing.T) {
	var out, errs bytes.Buffer
	if code := FinishWithoutValues("m", filepath.Join(t.TempDir(), "missing.json"), NewReport("m"), &out, &errs); code != ExitFailed {
		t.Fatalf("a missing values file: exit %d, want %d", code, ExitFailed)
	}
	if !strings.HasPrefix(errs.String(), "m: open ") || out.Len() != 0 {
		t.Fatalf("a missing values file: stderr %q, stdout %q", errs.String(), out.String())
	}
	file := filepath.Join(t.TempDir(), "values.json")
	if err := os.WriteFile(file, []byte("[]"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errs.Reset()
	if code := FinishWithoutValues("m", file, NewReport("m"), &out, &errs); code != ExitRan || errs.Len() != 0 {
		t.Fatalf("a values file: exit %d, stderr %q", code, errs.String())
	}
	if !strings.Contains(out.String(), `"module": "m"`) && !strings.Contains(out.String(), `"module":"m"`) {
		t.Fatalf("the report is printed: %q", out.String())
	}
}

func TestEvaluatedSortsEvaluationsInTheModulesOrderAfterTheFindings(t *testing.T) {
	type ev struct{ Name, Case string }
	r := NewEvaluated("m", func(a, b ev) [][2]string { return [][2]string{{a.Name, b.Name}, {a.Case, b.Case}} })
	r.Evaluations = []ev{{"b", "1"}, {"a", "2"}, {"a", "1"}}
	r.Add(Finding{Source: "s", Code: "c"})
	var out bytes.Buffer
	if err := r.Write(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	order := []string{`"findings"`, `"Name": "a",
      "Case": "1"`, `"Name": "a",
      "Case": "2"`, `"Name": "b"`}
	at := -1
	for _, s := range order {
		i := strings.Index(text, s)
		if i <= at {
			t.Fatalf("%q not after the previous part in %s", s, text)
		}
		at = i
	}
}

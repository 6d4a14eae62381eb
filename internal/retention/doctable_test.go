package retention

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestDocDuration(t *testing.T) {
	cases := []struct {
		in   time.Duration
		want string
	}{
		{15 * time.Second, "15s"},
		{300 * time.Second, "5m"},
		{15 * time.Minute, "15m"},
		{time.Hour, "1h"},
		{90 * time.Minute, "1h30m"},
		{day, "1d"},
		{week, "7d"},
		{36 * time.Hour, "36h"},
	}
	for _, c := range cases {
		if got := docDuration(c.in); got != c.want {
			t.Errorf("docDuration(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

var testTitles = map[string]string{"tracked": "Tracked (local)", "enforced": "Enforced"}

// TestWriteDoc checks that every rule appears as a row with its key,
// window, action and source, under its platform's heading, in the table's
// order, and nothing else does.
func TestWriteDoc(t *testing.T) {
	var b bytes.Buffer
	if err := testTable().WriteDoc(&b, testTitles); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| `") {
			rows++
		}
	}
	if want := len(testTable().Rules()); rows != want {
		t.Errorf("%d rows, want one per rule (%d)", rows, want)
	}
	for _, want := range []string{
		"### Tracked (local)\n\nTracked, not enforced",
		"\n### Enforced\n\n| key |",
		"| `running_sandbox` | sandbox | running | 5m | last start or resume | kill (or `on_timeout`) | `timeout`: 1s to 1d; the deadline the platform reports wins | enforced: timeout |",
		"| `max_runtime` | sandbox | running | 1h | last start or resume | kill (or `on_timeout`) | no setting; at most 1d (account tier) | enforced: runtime cap |",
		"| `running_sandbox` | sandbox | running | none unless `timeout` is set | last start or resume | kill (or `on_timeout`) | `timeout` |",
		"| `paused_sandbox` | sandbox | paused | none (an override sets one) |",
		"| `old_template` | template | ready | none (an override sets one) | creation | delete | — |",
		"| `unused_template` | template | ready | 14d | last use (a box started from it; creation when none) | deactivate | — | enforced: unused templates |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q\n%s", want, out)
		}
	}
	if strings.Index(out, "### Tracked") > strings.Index(out, "### Enforced") {
		t.Error("sections are not in the table's platform order")
	}
	// Only the tracked platform's section says its deadlines are not enforced.
	if n := strings.Count(out, "Tracked, not enforced"); n != 1 {
		t.Errorf("%d sections say tracked-not-enforced, want 1", n)
	}
	if strings.Contains(out, "{{") {
		t.Error("the table holds template syntax; tfplugindocs would try to run it")
	}

	// One platform's table shows that platform only.
	b.Reset()
	if err := testTable().Only("enforced").WriteDoc(&b, testTitles); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Tracked") || !strings.HasPrefix(b.String(), "### Enforced\n") {
		t.Errorf("Only(enforced) wrote\n%s", b.String())
	}

	// No platforms, no sections.
	b.Reset()
	if err := (Table{}).WriteDoc(&b, nil); err != nil || b.Len() != 0 {
		t.Errorf("empty table: %q, %v", b.String(), err)
	}
}

// TestWriteDocWithoutTitle: a platform cannot be documented without a
// section title.
func TestWriteDocWithoutTitle(t *testing.T) {
	err := testTable().WriteDoc(&bytes.Buffer{}, map[string]string{"tracked": "Tracked"})
	if err == nil || !strings.Contains(err.Error(), `"enforced"`) {
		t.Errorf("err = %v, want one naming the platform without a title", err)
	}
}

func TestDocCell(t *testing.T) {
	if got := docCell(" a|b\nc {{x}} "); got != `a\|b c { {x} }` {
		t.Errorf("docCell = %q", got)
	}
}

func TestReplaceDoc(t *testing.T) {
	var table bytes.Buffer
	if err := testTable().WriteDoc(&table, testTitles); err != nil {
		t.Fatal(err)
	}
	doc := "intro\n" + DocTableBegin + "\nstale text\n" + DocTableEnd + "\noutro\n"
	got, err := testTable().ReplaceDoc([]byte(doc), testTitles)
	if err != nil {
		t.Fatal(err)
	}
	want := "intro\n" + DocTableBegin + "\n\n" + table.String() + "\n" + DocTableEnd + "\noutro\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	again, err := testTable().ReplaceDoc(got, testTitles)
	if err != nil || string(again) != string(got) {
		t.Errorf("a second run changed the document (err %v): not idempotent", err)
	}

	for name, bad := range map[string]string{
		"no markers":    "text",
		"no end":        DocTableBegin + "\n",
		"twice":         DocTableBegin + DocTableEnd + DocTableBegin + DocTableEnd,
		"out of order":  DocTableEnd + "\n" + DocTableBegin,
		"only the end":  DocTableEnd,
		"begin doubled": DocTableBegin + DocTableBegin + DocTableEnd,
	} {
		if _, err := testTable().ReplaceDoc([]byte(bad), testTitles); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

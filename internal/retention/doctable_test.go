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

// TestWriteDocTable checks that every rule of a shipped platform appears as
// a row with its key, window, action and source, under its platform's
// heading, and that rows of platforms not shipped yet do not.
func TestWriteDocTable(t *testing.T) {
	var b bytes.Buffer
	if err := WriteDocTable(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| `") {
			rows++
		}
	}
	if want := len(ShippedRules()); rows != want {
		t.Errorf("%d rows, want one per rule of a shipped platform (%d)", rows, want)
	}
	for _, want := range []string{
		"### Docker (local)", "### E2B",
		"Tracked, not enforced",
		"| `running_sandbox` | sandbox | running | 5m | last start or resume | kill (or `on_timeout`) | `timeout`: 1s to 1d, default 5m; the deadline the platform reports wins |",
		"| `max_runtime` | sandbox | running | 1h | last start or resume | kill (or `on_timeout`) | no setting; at most 1d (account tier) |",
		"| `running_sandbox` | sandbox | running | none unless `timeout` is set | last start or resume | kill (or `on_timeout`) | `timeout` |",
		"| `auto_delete` | sandbox | stopped | none unless `auto_delete_after` is set | entering the state | delete | `auto_delete_after` |",
		"| `paused_sandbox` | sandbox | paused | none (an override sets one) |",
		"No shipped platform has a rule for `archived_sandbox`, `idle_sandbox` or `unused_snapshot` yet: " +
			"the `retention {}` block accepts these keys, but they change no deadline on Docker or E2B.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q\n%s", want, out)
		}
	}
	// Rows of platforms still to come stay in the code table, out of the guide.
	for _, unwanted := range []string{
		"### Daytona", "### Fly.io", "### Modal", "Daytona", "Fly", "Modal", "modal.com",
		"| `stopped_sandbox` | sandbox | stopped | 7d |", "| `volume_snapshot` | snapshot | volume | 5d |",
		"| `archived_sandbox` |", "| `idle_sandbox` |", "| `unused_snapshot` |",
	} {
		if strings.Contains(out, unwanted) {
			t.Errorf("table holds %q, which only a platform not shipped yet has\n%s", unwanted, out)
		}
	}
	// Only Docker's section says its deadlines are not enforced.
	if n := strings.Count(out, "Tracked, not enforced"); n != 1 {
		t.Errorf("%d sections say tracked-not-enforced, want 1 (Docker)", n)
	}
	if strings.Contains(out, "{{") {
		t.Error("the table holds template syntax; tfplugindocs would try to run it")
	}
}

// TestWriteDocTableShippedWithoutTitle: a platform cannot ship without a
// section title in the guide.
func TestWriteDocTableShippedWithoutTitle(t *testing.T) {
	saved := shipped
	t.Cleanup(func() { shipped = saved })
	shipped = []string{Docker, "nowhere"}
	if err := WriteDocTable(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), `"nowhere"`) {
		t.Errorf("err = %v, want one naming the platform without a title", err)
	}
}

func TestDocList(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a or b"}, {[]string{"a", "b", "c"}, "a, b or c"},
	} {
		if got := docList(c.in, "or"); got != c.want {
			t.Errorf("docList(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDocCell(t *testing.T) {
	if got := docCell(" a|b\nc {{x}} "); got != `a\|b c { {x} }` {
		t.Errorf("docCell = %q", got)
	}
}

func TestReplaceDocTable(t *testing.T) {
	var table bytes.Buffer
	if err := WriteDocTable(&table); err != nil {
		t.Fatal(err)
	}
	doc := "intro\n" + DocTableBegin + "\nstale text\n" + DocTableEnd + "\noutro\n"
	got, err := ReplaceDocTable([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := "intro\n" + DocTableBegin + "\n\n" + table.String() + "\n" + DocTableEnd + "\noutro\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	again, err := ReplaceDocTable(got)
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
		if _, err := ReplaceDocTable([]byte(bad)); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

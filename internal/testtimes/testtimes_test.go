package testtimes

import (
	"strings"
	"testing"
	"time"
)

func TestRead(t *testing.T) {
	stream := strings.Join([]string{
		`{"Action":"start","Package":"m/internal/a"}`,
		`{"Action":"run","Package":"m/internal/a","Test":"TestSlow"}`,
		`{"Action":"output","Package":"m/internal/a","Test":"TestSlow","Output":"    a_test.go:9: boom\n"}`,
		`{"Action":"fail","Package":"m/internal/a","Test":"TestSlow","Elapsed":90.5}`,
		`{"Action":"pass","Package":"m/internal/a","Test":"TestQuick","Elapsed":0.25}`,
		`{"Action":"fail","Package":"m/internal/a","Elapsed":91}`,
		`# m/internal/broken`,
		`{"Action":"pass","Package":"m/internal/b","Test":"TestLong/sub","Elapsed":1900}`,
		`{"Action":"pass","Package":"m/internal/b","Elapsed":1950}`,
		`{"Action":"skip","Package":"m/internal/c"}`,
	}, "\n")
	var live strings.Builder
	res, err := Read(strings.NewReader(stream), &live)
	if err != nil {
		t.Fatal(err)
	}
	wantLive := "FAIL\tm/internal/a\t91.000s\n# m/internal/broken\nok  \tm/internal/b\t1950.000s\n?   \tm/internal/c\t[no test files]\n"
	if live.String() != wantLive {
		t.Errorf("live output:\n%q\nwant\n%q", live.String(), wantLive)
	}
	if len(res.Packages) != 3 || res.Packages[0].Package != "m/internal/b" || res.Packages[1].Package != "m/internal/a" {
		t.Errorf("packages, longest first: %+v", res.Packages)
	}
	if len(res.Tests) != 3 || res.Tests[0].Test != "TestLong/sub" || res.Tests[2].Test != "TestQuick" {
		t.Errorf("tests, longest first: %+v", res.Tests)
	}
	if len(res.Failed) != 2 || res.Failed[0].Test != "TestSlow" || res.Failed[0].Output != "    a_test.go:9: boom\n" || res.Failed[1].Test != "" {
		t.Errorf("failures: %+v", res.Failed)
	}

	var rep strings.Builder
	near := Report(&rep, res, time.Hour, 2)
	if len(near) != 1 || near[0] != "m/internal/b" {
		t.Errorf("packages at half of the timeout or more: %v, want m/internal/b (1950 s of 3600)", near)
	}
	for _, want := range []string{"internal/b  ", "54%  <- half", "internal/a  ", "3%", "the 2 slowest", "1900.0s  internal/b  TestLong/sub"} {
		if !strings.Contains(rep.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, rep.String())
		}
	}
	if strings.Contains(rep.String(), "internal/c") || strings.Contains(rep.String(), "TestQuick") {
		t.Errorf("report lists a package without tests or a test past the top 2:\n%s", rep.String())
	}
}

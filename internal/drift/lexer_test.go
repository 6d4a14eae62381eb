package drift

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/iotest"
)

// TestLexerSkipAgreesWithEncodingJSON checks the validating skipper against
// encoding/json on the corners of the grammar, with whole and one-byte reads.
func TestLexerSkipAgreesWithEncodingJSON(t *testing.T) {
	inputs := []string{
		`0`, `-0`, `1`, `-1`, `01`, `1.`, `1.5`, `.5`, `-`, `1e`, `1e5`, `1E+5`, `1e-5`, `1.0e`, `-01`, `2.e3`,
		`true`, `false`, `null`, `tru`, `nul`, `truex`, `True`,
		`""`, `"a"`, `"\""`, `"\\"`, `"\/"`, `"\b\f\n\r\t"`, `"\u00e9"`, `"\u00g9"`, `"\u12"`, `"\x"`, "\"a\tb\"", "\"a\x01b\"", `"unterminated`,
		`[]`, `[1,2]`, `[1,]`, `[,1]`, `[1 2]`, `[`, `]`,
		`{}`, `{"a":1}`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{1:2}`, `{"a":1 "b":2}`, `{"a":[{"b":null}]}`,
		`  {"a" : [ 1 , "x" ] }  `, "{\"a\":\"\u00e9\u4e16\"}",
	}
	for _, in := range inputs {
		for _, oneByte := range []bool{false, true} {
			var l *lexer
			if oneByte {
				l = newLexer(iotest.OneByteReader(strings.NewReader(in)))
			} else {
				l = newLexer(strings.NewReader(in))
			}
			err := l.skip("value", 0)
			if err == nil {
				if _, more := l.peek(); more {
					err = l.syntax("value", "trailing data")
				}
			}
			if got, want := err == nil, json.Valid([]byte(in)); got != want {
				t.Errorf("%q (one-byte %v): lexer accepts=%v, encoding/json accepts=%v (err %v)", in, oneByte, got, want, err)
			}
		}
	}
}

func TestLexerDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", maxDepth+5) + strings.Repeat("]", maxDepth+5)
	l := newLexer(strings.NewReader(deep))
	if err := l.skip("value", 0); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("err = %v, want nested too deeply", err)
	}
	in := `{"version":4,"x":` + deep + `}`
	if _, err := Parse(strings.NewReader(in), func(Instance) error { return nil }); err == nil {
		t.Error("deeply nested state accepted")
	}
}

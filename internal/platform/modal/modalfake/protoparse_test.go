package modalfake

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode"
)

// protoSpec is what the spec tests need of a .proto file: its package, the
// fields of every message (nested ones as "Outer.Inner") by name, and the
// RPCs of every service. It is a small parser for the subset of proto3 the
// official files use, not a general one.
type protoSpec struct {
	pkg      string
	messages map[string]map[string]int // message → field name → number
	rpcs     map[string]protoRPC       // "Service.Method"
}

type protoRPC struct {
	req, resp                  string
	clientStream, serverStream bool
}

func parseProtoFile(path string) (*protoSpec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p := &protoParser{toks: tokenizeProto(string(b)), spec: &protoSpec{messages: map[string]map[string]int{}, rpcs: map[string]protoRPC{}}}
	if err := p.top(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p.spec, nil
}

// tokenizeProto drops comments and splits identifiers (dots included),
// numbers, string literals and single punctuation characters.
func tokenizeProto(src string) []string {
	var toks []string
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return toks
			}
			i += end + 4
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(src) && src[j] != c {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			toks = append(toks, src[i:min(j+1, len(src))])
			i = j + 1
		case unicode.IsSpace(rune(c)):
			i++
		case isIdentByte(c):
			j := i
			for j < len(src) && isIdentByte(src[j]) {
				j++
			}
			toks = append(toks, src[i:j])
			i = j
		default:
			toks = append(toks, string(c))
			i++
		}
	}
	return toks
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '.' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

type protoParser struct {
	toks []string
	pos  int
	spec *protoSpec
}

func (p *protoParser) next() string {
	if p.pos >= len(p.toks) {
		return ""
	}
	t := p.toks[p.pos]
	p.pos++
	return t
}

func (p *protoParser) peek() string {
	if p.pos >= len(p.toks) {
		return ""
	}
	return p.toks[p.pos]
}

func (p *protoParser) expect(want string) error {
	if got := p.next(); got != want {
		return fmt.Errorf("token %d: got %q, want %q", p.pos, got, want)
	}
	return nil
}

// skipStatement skips to the ";" ending a statement.
func (p *protoParser) skipStatement() {
	for t := p.next(); t != ";" && t != ""; t = p.next() {
	}
}

// skipBlock skips a "{ ... }" block whose "{" is the next token.
func (p *protoParser) skipBlock() error {
	if err := p.expect("{"); err != nil {
		return err
	}
	for depth := 1; depth > 0; {
		switch p.next() {
		case "{":
			depth++
		case "}":
			depth--
		case "":
			return fmt.Errorf("unterminated block")
		}
	}
	return nil
}

func (p *protoParser) top() error {
	for p.peek() != "" {
		switch t := p.next(); t {
		case "package":
			p.spec.pkg = p.next()
			p.skipStatement()
		case "syntax", "import", "option":
			p.skipStatement()
		case "message":
			if err := p.message(p.next()); err != nil {
				return err
			}
		case "enum", "extend":
			p.next()
			if err := p.skipBlock(); err != nil {
				return err
			}
		case "service":
			if err := p.service(p.next()); err != nil {
				return err
			}
		case ";":
		default:
			return fmt.Errorf("token %d: unexpected %q at top level", p.pos, t)
		}
	}
	return nil
}

func (p *protoParser) message(name string) error {
	fields := map[string]int{}
	p.spec.messages[name] = fields
	if err := p.expect("{"); err != nil {
		return err
	}
	return p.fields(name, fields)
}

// fields reads a message or oneof body up to its "}".
func (p *protoParser) fields(msg string, fields map[string]int) error {
	for {
		switch t := p.next(); t {
		case "}":
			return nil
		case "":
			return fmt.Errorf("message %s: unterminated", msg)
		case "message":
			if err := p.message(msg + "." + p.next()); err != nil {
				return err
			}
		case "enum":
			p.next()
			if err := p.skipBlock(); err != nil {
				return err
			}
		case "oneof":
			p.next()
			if err := p.expect("{"); err != nil {
				return err
			}
			if err := p.fields(msg, fields); err != nil {
				return err
			}
		case "option", "reserved", "extensions":
			p.skipStatement()
		case ";":
		case "map":
			// map < K , V > name = N ;
			for p.next() != ">" {
			}
			if err := p.field(msg, fields); err != nil {
				return err
			}
		case "optional", "repeated", "required":
			p.next() // type
			if err := p.field(msg, fields); err != nil {
				return err
			}
		default: // t is the type
			if err := p.field(msg, fields); err != nil {
				return err
			}
		}
	}
}

// field reads "name = N [options] ;" after a field's type.
func (p *protoParser) field(msg string, fields map[string]int) error {
	name := p.next()
	if err := p.expect("="); err != nil {
		return fmt.Errorf("message %s field %s: %w", msg, name, err)
	}
	n, err := strconv.Atoi(p.next())
	if err != nil {
		return fmt.Errorf("message %s field %s: %w", msg, name, err)
	}
	fields[name] = n
	p.skipStatement()
	return nil
}

func (p *protoParser) service(name string) error {
	if err := p.expect("{"); err != nil {
		return err
	}
	for {
		switch t := p.next(); t {
		case "}":
			return nil
		case "option":
			p.skipStatement()
		case "rpc":
			method := p.next()
			var r protoRPC
			if err := p.expect("("); err != nil {
				return err
			}
			if p.peek() == "stream" {
				p.next()
				r.clientStream = true
			}
			r.req = p.next()
			if err := p.expect(")"); err != nil {
				return err
			}
			if err := p.expect("returns"); err != nil {
				return err
			}
			if err := p.expect("("); err != nil {
				return err
			}
			if p.peek() == "stream" {
				p.next()
				r.serverStream = true
			}
			r.resp = p.next()
			if err := p.expect(")"); err != nil {
				return err
			}
			if p.peek() == "{" {
				if err := p.skipBlock(); err != nil {
					return err
				}
			} else if err := p.expect(";"); err != nil {
				return err
			}
			p.spec.rpcs[name+"."+method] = r
		default:
			return fmt.Errorf("service %s: unexpected %q", name, t)
		}
	}
}

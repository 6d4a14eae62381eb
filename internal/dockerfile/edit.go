package dockerfile

import (
	"fmt"
	"strings"
)

// Append returns content with line added as an instruction of its own
// after the last one. A file that ends in a line continuation would join
// the added line to its last instruction; that continuation is ended
// first, which changes nothing else (BuildKit ends the instruction at the
// end of the file either way). A file that does not parse gets the line
// appended as it is: its build fails on what is already wrong.
func Append(content, line string) string {
	if f, err := Parse(content); err == nil && f.dangling != nil {
		content = endContinuation(content, f)
	}
	if content != "" && !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	return content + line + "\n"
}

// InsertFirst returns content with line added as its first instruction:
// after the parser directives, which stop being directives below an
// instruction, and after a byte-order mark.
func InsertFirst(content, line string) string {
	head := ""
	if strings.HasPrefix(content, "\uFEFF") {
		head, content = "\uFEFF", strings.TrimPrefix(content, "\uFEFF")
	}
	if f, err := Parse(content); err == nil && len(f.Directives) > 0 {
		lines := splitLines(content)
		last := lines[f.Directives[len(f.Directives)-1].Line-1]
		end := last.offset + len(last.text)
		head += content[:end]
		content = content[end:]
		if !strings.HasSuffix(head, "\n") {
			head += "\n"
		}
	}
	return head + line + "\n" + content
}

// FromLine is the 1-based line of the first FROM instruction, 0 when there
// is none. A template built on another must have none: its base is the
// template.
func (f *File) FromLine() int {
	for _, in := range f.Instructions {
		if in.Keyword == "FROM" {
			return in.Line
		}
	}
	return 0
}

// BaseProblem says what is wrong with how the Dockerfile names its base
// image, "" when nothing is: it must have a FROM, and only ARG may come
// before the first one (BuildKit's rule: any other instruction before it
// fails the build with "no build stage in current context").
func (f *File) BaseProblem() string {
	for _, in := range f.Instructions {
		switch in.Keyword {
		case "FROM":
			return ""
		case "ARG":
		default:
			return fmt.Sprintf("line %d: %s comes before FROM; only ARG may come before the FROM line that names the base image", in.Line, in.Keyword)
		}
	}
	return "the Dockerfile has no FROM line: it must name its base image (or give from_template and no FROM)"
}

// endContinuation removes the continuation character from the last line
// of the dangling instruction, and any escape character that removal
// leaves at the line's end (it would continue the line again; the
// instruction loses it, a character no build reads as anything but a
// stray escape). A line that holds nothing else becomes blank, and a blank
// line continues a continuation, so the lines before it lose theirs too,
// back to one that has text before it.
func endContinuation(content string, f *File) string {
	lines := splitLines(content)
	for i := len(f.dangling) - 1; i >= 0; i-- {
		l := lines[f.dangling[i]-1]
		text := trimNewline(l.text)
		kept := text
		for {
			cut, ok := continuationCut(kept, f.Escape)
			if !ok {
				break
			}
			kept = kept[:cut]
		}
		content = content[:l.offset+len(kept)] + content[l.offset+len(text):]
		if strings.TrimSpace(strings.TrimPrefix(kept, "\uFEFF")) != "" {
			break
		}
	}
	return content
}

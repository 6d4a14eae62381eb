package docker

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// buildTailLines is how much build output a failed build's error carries.
const buildTailLines = 20

// buildMessage is one JSON message of the engine's build output stream.
type buildMessage struct {
	Stream      string `json:"stream"`
	Status      string `json:"status"`
	Error       string `json:"error"`
	ErrorDetail *struct {
		Message string `json:"message"`
	} `json:"errorDetail"`
	Aux json.RawMessage `json:"aux"`
}

// stepResultRE is the line the legacy builder prints when a step has
// produced an image: " ---> 3f2a1b0c9d8e". (" ---> Running in <container>"
// and " ---> Using cache" do not match.)
var stepResultRE = regexp.MustCompile(`^ ---> ([0-9a-f]{12,64})$`)

// buildLog follows a build's output: the step being run, the last lines
// printed, the images the build made, the resulting image ID, and the error
// if the build failed.
type buildLog struct {
	step    string   // "Step 3/5 : RUN ..." of the step last started
	tail    []string // the last buildTailLines complete lines
	partial string   // output not yet ended by a newline
	imageID string
	failure string

	// made lists, oldest first, the (short) ids of the images this build
	// committed, one per step that produced one. The legacy builder
	// without a cache commits every step, so a failed build leaves these
	// behind. A FROM step's first result is the base image, which is not
	// the build's: a user's image or another template.
	made []string
	// fromStep is true while the step being run is a FROM; stepResults
	// counts the results it printed so far (build triggers of the base,
	// ONBUILD, print theirs after the base's).
	fromStep    bool
	stepResults int
}

// add takes one message and returns the complete lines it finished, for the
// caller to log.
func (l *buildLog) add(m buildMessage) []string {
	var lines []string
	if m.Stream != "" || m.Status != "" {
		text := l.partial + m.Stream
		if m.Status != "" {
			text += m.Status + "\n"
		}
		parts := strings.Split(text, "\n")
		l.partial = parts[len(parts)-1]
		for _, line := range parts[:len(parts)-1] {
			line = strings.TrimRight(line, "\r")
			if strings.TrimSpace(line) == "" {
				continue
			}
			l.follow(line)
			lines = append(lines, line)
		}
		l.tail = append(l.tail, lines...)
		if over := len(l.tail) - buildTailLines; over > 0 {
			l.tail = l.tail[over:]
		}
	}
	if len(m.Aux) > 0 {
		var aux struct{ ID string }
		if json.Unmarshal(m.Aux, &aux) == nil && aux.ID != "" {
			l.imageID = aux.ID
		}
	}
	switch {
	case m.ErrorDetail != nil && m.ErrorDetail.Message != "":
		l.failure = m.ErrorDetail.Message
	case m.Error != "":
		l.failure = m.Error
	}
	return lines
}

// follow notes the step a line starts, or the image a step produced.
func (l *buildLog) follow(line string) {
	if strings.HasPrefix(line, "Step ") {
		l.step = line
		l.fromStep = stepInstruction(line) == "FROM"
		l.stepResults = 0
		return
	}
	m := stepResultRE.FindStringSubmatch(line)
	if m == nil {
		return
	}
	l.stepResults++
	if l.fromStep && l.stepResults == 1 {
		return // the base image
	}
	l.made = append(l.made, m[1])
}

// stepInstruction is the instruction of a step line, upper case:
// "Step 2/5 : copy a /a" is "COPY".
func stepInstruction(line string) string {
	_, rest, ok := strings.Cut(line, " : ")
	if !ok {
		return ""
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return ""
	}
	return strings.ToUpper(fields[0])
}

// read consumes a whole build output stream, calling logLine for every line.
func (l *buildLog) read(r io.Reader, logLine func(string)) error {
	dec := json.NewDecoder(r)
	for {
		var m buildMessage
		err := dec.Decode(&m)
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("reading the build output: %w", err)
		}
		for _, line := range l.add(m) {
			logLine(line)
		}
	}
	if strings.TrimSpace(l.partial) != "" {
		l.tail = append(l.tail, l.partial)
		logLine(l.partial)
		l.partial = ""
	}
	return nil
}

// err describes a failed build: the failing step, the engine's message, and
// the last lines of output. It is nil when the build did not fail.
func (l *buildLog) err(name string) error {
	if l.failure == "" {
		return nil
	}
	step := l.step
	if step == "" {
		step = "before the first step"
	}
	msg := fmt.Sprintf("building template %q failed at %s: %s", name, step, strings.TrimSpace(l.failure))
	if len(l.tail) > 0 {
		msg += "\nlast build output:\n  " + strings.Join(l.tail, "\n  ")
	}
	return fmt.Errorf("%s", msg)
}

package mcphost

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// JSONC is JSON with // and /* */ comments and trailing commas, as VS Code and Cursor
// write their settings. A file in it is edited in place: the bytes of the entry being
// set or removed change, and every other byte (comments, blank lines, indentation, the
// order and spelling of everything else) stays as it was.

// stripJSONC returns data with its comments blanked (nocomment) and, besides, its
// trailing commas blanked (clean): spaces over them, newlines kept, so every offset in
// either is an offset in data. jsonc says whether anything was blanked. An unterminated
// block comment or string is an error.
func stripJSONC(data []byte) (nocomment, clean []byte, jsonc bool, err error) {
	nocomment = bytes.Clone(data)
	for i := 0; i < len(nocomment); i++ {
		switch c := nocomment[i]; {
		case c == '"':
			j, ok := stringEnd(nocomment, i)
			if !ok {
				return nil, nil, false, errors.New("unterminated string")
			}
			i = j - 1
		case c == '/' && i+1 < len(nocomment) && nocomment[i+1] == '/':
			jsonc = true
			for ; i < len(nocomment) && nocomment[i] != '\n'; i++ {
				nocomment[i] = ' '
			}
		case c == '/' && i+1 < len(nocomment) && nocomment[i+1] == '*':
			end := bytes.Index(nocomment[i+2:], []byte("*/"))
			if end < 0 {
				return nil, nil, false, errors.New("unterminated /* comment")
			}
			jsonc = true
			for k := i; k < i+2+end+2; k++ {
				if nocomment[k] != '\n' {
					nocomment[k] = ' '
				}
			}
			i += 2 + end + 1
		}
	}
	clean = bytes.Clone(nocomment)
	for i := 0; i < len(clean); i++ {
		switch clean[i] {
		case '"':
			j, _ := stringEnd(clean, i)
			i = j - 1
		case ',':
			if k := skipSpace(clean, i+1); k < len(clean) && (clean[k] == '}' || clean[k] == ']') {
				clean[i] = ' '
				jsonc = true
			}
		}
	}
	return nocomment, clean, jsonc, nil
}

// stringEnd returns the offset just past the JSON string starting at data[i] ('"').
func stringEnd(data []byte, i int) (int, bool) {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(data), false
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipBlank skips spaces and tabs, not newlines.
func skipBlank(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
		i++
	}
	return i
}

// span is one member of an object, by offsets into the file.
type span struct {
	key                        string
	keyStart, valStart, valEnd int
}

// objectSpans finds the members of the object that clean[start:end] holds (blank
// around it allowed): the offsets of its braces and of each member.
func objectSpans(clean []byte, start, end int) (open, close int, members []span, err error) {
	open = skipSpace(clean, start)
	if open >= end || clean[open] != '{' {
		return 0, 0, nil, errors.New("not a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(clean[open:end]))
	if _, err := dec.Token(); err != nil {
		return 0, 0, nil, err
	}
	for dec.More() {
		keyStart := skipSpace(clean, open+int(dec.InputOffset()))
		if keyStart < end && clean[keyStart] == ',' {
			keyStart = skipSpace(clean, keyStart+1)
		}
		tok, err := dec.Token()
		if err != nil {
			return 0, 0, nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return 0, 0, nil, fmt.Errorf("unexpected %v where a key belongs", tok)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, 0, nil, fmt.Errorf("value of %q: %w", key, err)
		}
		valEnd := open + int(dec.InputOffset())
		members = append(members, span{key: key, keyStart: keyStart, valStart: valEnd - len(raw), valEnd: valEnd})
	}
	if _, err := dec.Token(); err != nil {
		return 0, 0, nil, err
	}
	close = open + int(dec.InputOffset()) - 1
	return open, close, members, nil
}

// edit replaces data[from:to] with text.
type edit struct {
	from, to int
	text     string
}

// apply makes edits, which must not overlap, on data.
func apply(data []byte, edits []edit) []byte {
	// Latest first, so earlier offsets stay valid; of edits at one offset, the one
	// listed last first, so their texts end up in the order listed.
	for i := 1; i < len(edits); i++ {
		for j := i; j > 0 && edits[j].from >= edits[j-1].from; j-- {
			edits[j], edits[j-1] = edits[j-1], edits[j]
		}
	}
	out := bytes.Clone(data)
	for _, e := range edits {
		out = append(out[:e.from], append([]byte(e.text), out[e.to:]...)...)
	}
	return out
}

// lineIndent is the blank run before offset i on its line, when only blanks precede it.
func lineIndent(data []byte, i int) (string, bool) {
	start := bytes.LastIndexByte(data[:i], '\n') + 1
	run := string(data[start:i])
	return run, strings.Trim(run, " \t") == ""
}

// jsoncDoc is a JSONC file ready for in-place edits.
type jsoncDoc struct {
	data, nocomment, clean []byte
	rootOpen, rootClose    int
	root                   []span
}

func parseJSONC(data []byte) (*jsoncDoc, error) {
	nocomment, clean, _, err := stripJSONC(data)
	if err != nil {
		return nil, err
	}
	d := &jsoncDoc{data: data, nocomment: nocomment, clean: clean}
	if d.rootOpen, d.rootClose, d.root, err = objectSpans(clean, 0, len(clean)); err != nil {
		return nil, err
	}
	if k := skipSpace(clean, d.rootClose+1); k != len(clean) {
		return nil, errors.New("data after the top-level object")
	}
	return d, nil
}

func find(members []span, key string) (int, bool) {
	for i, m := range members {
		if m.key == key {
			return i, true
		}
	}
	return -1, false
}

// indentUnit guesses the file's indentation step from the root's first member.
func (d *jsoncDoc) indentUnit() string {
	if len(d.root) > 0 {
		if ind, ok := lineIndent(d.data, d.root[0].keyStart); ok && ind != "" {
			return ind
		}
	}
	return "  "
}

// value renders raw JSON indented for a member whose line starts with indent.
func value(raw json.RawMessage, indent, unit string) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, indent, unit) != nil {
		return string(raw)
	}
	return b.String()
}

// insertMember adds "key": raw as the last member of the object whose braces are at
// open and close, with members, its own line indented one unit more than the object's.
func (d *jsoncDoc) insertMember(open, close int, members []span, key string, raw json.RawMessage) []edit {
	unit := d.indentUnit()
	outer, _ := lineIndent(d.data, close)
	if strings.Trim(outer, " \t") != "" {
		outer = ""
	}
	inner := outer + unit
	if len(members) > 0 {
		if ind, ok := lineIndent(d.data, members[0].keyStart); ok {
			inner = ind
		}
	}
	var kb bytes.Buffer
	writeKey(&kb, key)
	member := "\n" + inner + kb.String() + " " + value(raw, inner, unit)
	var edits []edit
	if len(members) > 0 {
		last := members[len(members)-1]
		if k := skipSpace(d.nocomment, last.valEnd); k >= close || d.nocomment[k] != ',' {
			edits = append(edits, edit{last.valEnd, last.valEnd, ","})
		} else {
			member += "," // the file's style: a trailing comma after the last member
		}
	}
	// After whatever precedes the closing brace (a comment included), before the blank
	// run that leads to it.
	at := close
	for at > open+1 && strings.ContainsRune(" \t\r\n", rune(d.data[at-1])) {
		at--
	}
	if at <= open+1 {
		at = open + 1
	}
	return append(edits, edit{at, close, member + "\n" + outer})
}

// removeMember deletes members[i] of an object closing at close, with its comma, and
// its line when nothing else is on it.
func (d *jsoncDoc) removeMember(close int, members []span, i int) []edit {
	m := members[i]
	from, to := m.keyStart, m.valEnd
	var edits []edit
	if k := skipSpace(d.nocomment, to); k < close && d.nocomment[k] == ',' {
		to = k + 1
	} else if i > 0 {
		prev := members[i-1]
		if k := skipSpace(d.nocomment, prev.valEnd); d.nocomment[k] == ',' {
			edits = append(edits, edit{k, k + 1, ""})
		}
	}
	// A // comment on the rest of the member's line is the member's.
	if k := skipBlank(d.data, to); k+1 < len(d.data) && d.data[k] == '/' && d.data[k+1] == '/' {
		to = k
		for to < len(d.data) && d.data[to] != '\n' {
			to++
		}
	}
	if ind, ok := lineIndent(d.data, from); ok {
		rest := to
		for rest < len(d.data) && (d.data[rest] == ' ' || d.data[rest] == '\t' || d.data[rest] == '\r') {
			rest++
		}
		if rest < len(d.data) && d.data[rest] == '\n' {
			from, to = from-len(ind), rest+1
		}
	}
	return append(edits, edit{from, to, ""})
}

// servers finds the servers object under key: its braces and members; ok is false
// when the key is absent, null, or not an object (err then says which).
func (d *jsoncDoc) servers(key string) (idx, open, close int, members []span, err error) {
	idx, found := find(d.root, key)
	if !found {
		return -1, 0, 0, nil, nil
	}
	m := d.root[idx]
	if string(d.clean[m.valStart:m.valEnd]) == "null" {
		return idx, -1, 0, nil, nil
	}
	open, close, members, err = objectSpans(d.clean, m.valStart, m.valEnd)
	return idx, open, close, members, err
}

// set makes the server name launch entry (raw JSON), editing only that entry's bytes
// (or inserting it, or the servers object).
func (d *jsoncDoc) set(key, name string, entry json.RawMessage) ([]byte, error) {
	idx, open, close, members, err := d.servers(key)
	if err != nil {
		return nil, err
	}
	unit := d.indentUnit()
	switch {
	case idx < 0:
		var b bytes.Buffer
		writeKey(&b, name)
		obj := json.RawMessage("{" + b.String() + string(entry) + "}")
		return apply(d.data, d.insertMember(d.rootOpen, d.rootClose, d.root, key, obj)), nil
	case open < 0: // "key": null
		m := d.root[idx]
		var b bytes.Buffer
		writeKey(&b, name)
		ind, _ := lineIndent(d.data, m.keyStart)
		return apply(d.data, []edit{{m.valStart, m.valEnd, value(json.RawMessage("{"+b.String()+string(entry)+"}"), ind, unit)}}), nil
	}
	if i, ok := find(members, name); ok {
		m := members[i]
		ind, ok := lineIndent(d.data, m.keyStart)
		if !ok {
			ind, _ = lineIndent(d.data, d.root[idx].keyStart)
			ind += unit
		}
		return apply(d.data, []edit{{m.valStart, m.valEnd, value(entry, ind, unit)}}), nil
	}
	return apply(d.data, d.insertMember(open, close, members, name, entry)), nil
}

// remove deletes the named servers, editing only their bytes; one at a time, each
// against the file the one before left.
func (d *jsoncDoc) remove(key string, names []string) ([]byte, error) {
	data := d.data
	for _, name := range names {
		cur, err := parseJSONC(data)
		if err != nil {
			return nil, err
		}
		idx, open, close, members, err := cur.servers(key)
		if err != nil || idx < 0 || open < 0 {
			return data, err
		}
		if i, ok := find(members, name); ok {
			data = apply(data, cur.removeMember(close, members, i))
		}
	}
	return data, nil
}

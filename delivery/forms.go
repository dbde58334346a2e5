package delivery

// The value forms of corpus §2.1 that a pattern states, as JSON Schema patterns (the
// syntax Go's regexp and ECMAScript share). The legacy flags check them in the argv
// phase and put them in the adapter's schema; the native tools' schemas carry the same
// patterns, so the kernel refuses a malformed value on every lane before it runs.
const (
	// WUIDPattern is a work-unit id: WU-<number>.
	WUIDPattern = `^WU-[0-9]+$`
	// MemoryIDPattern is a memory node id: mem-xxxx, then .<n> per child level.
	MemoryIDPattern = `^mem-[0-9a-f]{4}(\.[0-9]+)*$`
	// DatePattern is a DATE's shape, YYYY-MM-DD (that it names a real day is checked
	// where it is parsed).
	DatePattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	// DurationPattern is a DURATION: <int><unit>, unit one of s m h d w.
	DurationPattern = `^([0-9]+)([smhdw])$`
	// NonBlankPattern is a string that is not blank: it holds at least one character
	// other than white space (what a check of strings.TrimSpace(v) != "" refuses, up to
	// the Unicode spaces outside ASCII).
	NonBlankPattern = `\S`
	// PlanIDPattern is what a plan belongs to: a WU (WU-<number>) or an initiative
	// (INIT-<id>, upper-case letters, digits and -).
	PlanIDPattern = `^(WU-[0-9]+|INIT-[0-9A-Z][0-9A-Z-]*)$`
)

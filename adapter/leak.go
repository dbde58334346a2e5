package adapter

import (
	"bufio"
	"bytes"
	"fmt"
	"reflect"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"
)

// leakLabel is the pprof label every main runs under; goroutines it starts inherit it,
// which is how the ones still running at its end are told apart from the host's.
const leakLabel = "cmdbridge.adapter.run"

// countLeaks counts the goroutines run r's main started that are still running, not
// counting the main's own. It reads the goroutine profile only when the process created
// a goroutine besides the main's since the run began, so a main that starts nothing costs
// one read of a runtime counter. (The number of live goroutines would not do: another
// goroutine of the host ending during the run hides one the main left running.)
// Goroutines that are just finishing get a few milliseconds to do so.
func (l *lane) countLeaks(r *run) int {
	// Since base, the main's own goroutine was created: nothing else means no leak.
	if n := goroutinesCreated(); n != 0 && n <= r.base+1 {
		return 0
	}
	want := `"` + leakLabel + `":"` + r.id + `"`
	n := 0
	for wait := 50 * time.Microsecond; wait < 20*time.Millisecond; wait *= 2 {
		n = labelled(want) - 1 // minus the main's goroutine
		if n <= 0 {
			return 0
		}
		time.Sleep(wait)
	}
	return n
}

// goroutinesCreated is the runtime's count of goroutines created since the program
// started (runtime/metrics), 0 where the runtime does not keep it.
func goroutinesCreated() uint64 {
	s := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// labelled counts goroutines whose labels include want, from the text goroutine profile
// (records "N @ pc…" followed by "# labels: {…}").
func labelled(want string) int {
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		return 0
	}
	total, count := 0, 0
	sc := bufio.NewScanner(&buf)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if num, _, ok := strings.Cut(line, " @ "); ok {
			count, _ = strconv.Atoi(num)
			continue
		}
		if strings.HasPrefix(line, "# labels: ") && strings.Contains(line, want) {
			total += count
		}
	}
	return total
}

// panicValue formats a panic value the way the Go runtime prints it after "panic: ".
func panicValue(v any) string {
	switch x := v.(type) {
	case error:
		return x.Error()
	case fmt.Stringer:
		return x.String()
	case string:
		return x
	case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, uintptr,
		float32, float64, complex64, complex128:
		rv := reflect.ValueOf(v)
		s := fmt.Sprint(v)
		switch rv.Kind() {
		case reflect.Float32, reflect.Float64:
			s = strconv.FormatFloat(rv.Float(), 'e', 6, 64)
			if !strings.HasPrefix(s, "-") {
				s = "+" + s
			}
		}
		if t := reflect.TypeOf(v); t.PkgPath() != "" || t.Name() != rv.Kind().String() {
			return "(" + t.String() + ") " + s
		}
		return s
	default:
		return fmt.Sprintf("(%T) %p", v, &v)
	}
}

func reflectPC(f any) uintptr { return reflect.ValueOf(f).Pointer() }

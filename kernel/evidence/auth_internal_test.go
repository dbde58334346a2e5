package evidence

import (
	"crypto/rand"
	"testing"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// BenchmarkRecordMAC is the CPU a record's MAC adds to its append (computing it when
// written; a sibling computes it again when folding the record in).
func BenchmarkRecordMAC(b *testing.B) {
	skey, _, err := note.GenerateKey(rand.Reader, KeyName)
	if err != nil {
		b.Fatal(err)
	}
	k, err := keysOf(skey)
	if err != nil {
		b.Fatal(err)
	}
	m := newMAC(k)
	leaf := tlog.RecordHash([]byte(`{"seq":1,"id":"call-1","tool":"wu:status"}`))
	b.ReportAllocs()
	for b.Loop() {
		if !macOK(m, leaf, recordMAC(m, leaf)) {
			b.Fatal("mac")
		}
	}
}

func TestKeysOfDerivesTheVerifierOfTheSigner(t *testing.T) {
	for range 20 { // key data whose base64 holds '+' and '/'
		skey, vkey, err := note.GenerateKey(rand.Reader, KeyName)
		if err != nil {
			t.Fatal(err)
		}
		k, err := keysOf(skey)
		if err != nil {
			t.Fatal(err)
		}
		if k.vkey != vkey {
			t.Fatalf("derived %q, want %q", k.vkey, vkey)
		}
	}
}

package token_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/cmdbridge/cmdbridge/surface/http/token"
)

var (
	key   = bytes.Repeat([]byte{7}, token.KeySize)
	epoch = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
)

func mint(t *testing.T, o token.MintOptions) string {
	t.Helper()
	if o.Now.IsZero() {
		o.Now = epoch
	}
	if o.TTL == 0 {
		o.TTL = time.Hour
	}
	tok, _, err := token.Mint(key, o)
	require.NoError(t, err)
	return tok
}

func TestVerifyRoundTrip(t *testing.T) {
	tok, claims, err := token.Mint(key, token.MintOptions{
		Subject: "ws-1:phone:dev-9", Tools: []string{"wu:*", "git:status"},
		Read: []string{"docs"}, Write: []string{"."}, TTL: time.Hour, Now: epoch,
	})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(tok, "cb1."), tok)
	got, err := token.Verify(key, tok, epoch.Add(59*time.Minute))
	require.NoError(t, err)
	assert.Equal(t, claims, got)
	assert.Equal(t, "ws-1:phone:dev-9", got.Subject)
	assert.Equal(t, []string{"docs"}, got.Read)
	assert.Equal(t, []string{"."}, got.Write)
	assert.Equal(t, epoch.Add(time.Hour).Unix(), got.ExpiresAt)
	assert.Len(t, got.ID, 24)
}

func TestVerifyRefuses(t *testing.T) {
	good := mint(t, token.MintOptions{Subject: "ws-1", Tools: []string{"*"}})
	head, sig, _ := strings.Cut(good[len("cb1."):], ".")
	forged := func(claims string) string {
		return "cb1." + base64.RawURLEncoding.EncodeToString([]byte(claims)) + "." + sig
	}
	flip := []byte(sig)
	// Swap one character for another valid base64url one, so the signature still decodes.
	if flip[3] == 'A' {
		flip[3] = 'B'
	} else {
		flip[3] = 'A'
	}
	for _, tc := range []struct {
		name string
		tok  string
		at   time.Time
		want error
	}{
		{"empty", "", epoch, token.ErrMalformed},
		{"no dots", "garbage", epoch, token.ErrMalformed},
		{"wrong version", "cb2." + head + "." + sig, epoch, token.ErrMalformed},
		{"signature not base64", "cb1." + head + ".!!!", epoch, token.ErrMalformed},
		{"flipped signature", "cb1." + head + "." + string(flip), epoch, token.ErrSignature},
		{"edited claims", forged(`{"sub":"admin","tools":["*"],"iat":1,"exp":99999999999,"jti":"x"}`), epoch, token.ErrSignature},
		{"other key", func() string {
			tok, _, err := token.Mint(bytes.Repeat([]byte{8}, token.KeySize), token.MintOptions{Subject: "ws-1", Tools: []string{"*"}, TTL: time.Hour, Now: epoch})
			require.NoError(t, err)
			return tok
		}(), epoch, token.ErrSignature},
		{"expired at the second", good, epoch.Add(time.Hour), token.ErrExpired},
		{"expired later", good, epoch.Add(48 * time.Hour), token.ErrExpired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := token.Verify(key, tc.tok, tc.at)
			assert.ErrorIs(t, err, tc.want)
		})
	}
}

func TestSees(t *testing.T) {
	c := token.Claims{Tools: []string{"wu:*", "git:status", "mem:{signal,inbox}"}}
	for name, want := range map[string]bool{
		"wu:create": true, "wu:status": true, "git:status": true, "git:commit": false,
		"mem:signal": true, "mem:triage": false, "wu": false, "state:doctor": false,
	} {
		assert.Equal(t, want, c.Sees(name), name)
	}
	assert.False(t, token.Claims{}.Sees("wu:create"), "no globs see nothing")
	assert.True(t, token.Claims{Tools: []string{"*"}}.Sees("wu:create"))
}

func TestValidateSubject(t *testing.T) {
	for s, ok := range map[string]bool{
		"ws-1":                      true,
		"alice@example.com":         true,
		"local:root":                true,
		"ws-1:phone:device_7":       true,
		"":                          false,
		"ws-1:phone:":               false,
		":phone:dev":                false,
		"ws 1:phone:dev":            false,
		"ws:phone:dev:phone:x":      false,
		"a\nb":                      false,
		strings.Repeat("x", 257):    false,
		"ws-1:phone:dev/../etc":     false,
		"workspace.acme:phone:ab-C": true,
	} {
		err := token.ValidateSubject(s)
		assert.Equal(t, ok, err == nil, "%q: %v", s, err)
	}
}

func TestMintRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  []byte
		o    token.MintOptions
		want string
	}{
		{"short key", []byte("short"), token.MintOptions{Subject: "s", TTL: time.Hour}, "key"},
		{"no ttl", key, token.MintOptions{Subject: "s"}, "ttl"},
		{"bad subject", key, token.MintOptions{Subject: "x:phone:", TTL: time.Hour}, "phone"},
		{"bad glob", key, token.MintOptions{Subject: "s", Tools: []string{"wu:["}, TTL: time.Hour}, "glob"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := token.Mint(tc.key, tc.o)
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

func TestMintedIDsDiffer(t *testing.T) {
	a := mint(t, token.MintOptions{Subject: "s", Tools: []string{"*"}})
	b := mint(t, token.MintOptions{Subject: "s", Tools: []string{"*"}})
	assert.NotEqual(t, a, b)
}

func TestLoadKeyCreatesOnceAndRotates(t *testing.T) {
	ws := t.TempDir()
	var wg sync.WaitGroup
	keys := make([][]byte, 8)
	errs := make([]error, 8)
	for i := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			keys[i], errs[i] = token.LoadKey(ws)
		}()
	}
	wg.Wait()
	for i := range keys {
		require.NoError(t, errs[i])
		assert.Equal(t, keys[0], keys[i], "every concurrent creator shares one key")
	}
	st, err := os.Stat(token.KeyPath(ws))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	entries, err := os.ReadDir(ws)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary files left behind")

	tok, _, err := token.Mint(keys[0], token.MintOptions{Subject: "s", Tools: []string{"*"}, TTL: time.Hour})
	require.NoError(t, err)
	require.NoError(t, token.Rotate(ws))
	rotated, err := token.LoadKey(ws)
	require.NoError(t, err)
	assert.NotEqual(t, keys[0], rotated)
	_, err = token.Verify(rotated, tok, time.Now())
	assert.ErrorIs(t, err, token.ErrSignature, "rotation invalidates old tokens")
}

func TestLoadKeyRefusesWrongSize(t *testing.T) {
	ws := t.TempDir()
	require.NoError(t, os.MkdirAll(ws+"/.cmdbridge", 0o700))
	require.NoError(t, os.WriteFile(token.KeyPath(ws), []byte("short"), 0o600))
	_, err := token.LoadKey(ws)
	assert.ErrorContains(t, err, "want 32")
}

func TestVerifyAcceptsOneSpellingOnly(t *testing.T) {
	good := mint(t, token.MintOptions{Subject: "ws-1", Tools: []string{"*"}})
	_, err := token.Verify(key, good, epoch)
	require.NoError(t, err)
	// The last character of a 32-byte signature carries 4 bits and 2 unused ones: the
	// other three characters that differ only in the unused bits decode to the same
	// signature under a lenient decoder.
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	last := strings.IndexByte(alphabet, good[len(good)-1])
	require.GreaterOrEqual(t, last, 0)
	others := 0
	for i := range alphabet {
		if i == last || i>>2 != last>>2 {
			continue
		}
		variant := good[:len(good)-1] + alphabet[i:i+1]
		lenient, err := base64.RawURLEncoding.DecodeString(variant[strings.LastIndexByte(variant, '.')+1:])
		require.NoError(t, err)
		canonical, _ := base64.RawURLEncoding.DecodeString(good[strings.LastIndexByte(good, '.')+1:])
		require.Equal(t, canonical, lenient, "the variant is the same signature to a lenient decoder")
		_, err = token.Verify(key, variant, epoch)
		assert.ErrorIs(t, err, token.ErrMalformed, "variant %q accepted", variant)
		others++
	}
	assert.Equal(t, 3, others)
}

// signed signs arbitrary claims JSON with the test key, as a forger holding the key (or a
// confused minting service) would.
func signed(claims string) string {
	head := "cb1." + base64.RawURLEncoding.EncodeToString([]byte(claims))
	m := hmac.New(sha256.New, key)
	m.Write([]byte(head))
	return head + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func TestRedTeamTokenFromTheFutureIsRefused(t *testing.T) {
	now := epoch
	at := func(d time.Duration) int64 { return now.Add(d).Unix() }
	exp := at(48 * time.Hour)
	for _, tc := range []struct {
		name   string
		claims string
		want   error
	}{
		{"iat an hour ahead", fmt.Sprintf(`{"sub":"ws-1","tools":["*"],"iat":%d,"exp":%d,"jti":"a"}`, at(time.Hour), exp), token.ErrNotYetValid},
		{"nbf an hour ahead", fmt.Sprintf(`{"sub":"ws-1","tools":["*"],"iat":%d,"nbf":%d,"exp":%d,"jti":"a"}`, at(0), at(time.Hour), exp), token.ErrNotYetValid},
		{"iat just past the skew", fmt.Sprintf(`{"sub":"ws-1","tools":["*"],"iat":%d,"exp":%d,"jti":"a"}`, at(token.MaxClockSkew+time.Second), exp), token.ErrNotYetValid},
		{"iat within the skew", fmt.Sprintf(`{"sub":"ws-1","tools":["*"],"iat":%d,"exp":%d,"jti":"a"}`, at(token.MaxClockSkew), exp), nil},
		{"nbf within the skew", fmt.Sprintf(`{"sub":"ws-1","tools":["*"],"iat":%d,"nbf":%d,"exp":%d,"jti":"a"}`, at(0), at(30*time.Second), exp), nil},
		{"nbf past", fmt.Sprintf(`{"sub":"ws-1","tools":["*"],"iat":%d,"nbf":%d,"exp":%d,"jti":"a"}`, at(-time.Hour), at(-time.Minute), exp), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := token.Verify(key, signed(tc.claims), now)
			if tc.want == nil {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, tc.want)
		})
	}
}

func TestRedTeamTokenWithRepeatedClaimIsRefused(t *testing.T) {
	exp := epoch.Add(time.Hour).Unix()
	for _, tc := range []struct{ name, claims string }{
		{"sub twice", fmt.Sprintf(`{"sub":"ws-1","tools":["wu:status"],"iat":1,"exp":%d,"jti":"a","sub":"admin"}`, exp)},
		{"tools twice", fmt.Sprintf(`{"sub":"ws-1","tools":["wu:status"],"iat":1,"exp":%d,"jti":"a","tools":["*"]}`, exp)},
		{"write twice in another case", fmt.Sprintf(`{"sub":"ws-1","tools":["*"],"write":["docs"],"iat":1,"exp":%d,"jti":"a","WRITE":["/"]}`, exp)},
		{"exp twice", fmt.Sprintf(`{"sub":"ws-1","tools":["*"],"iat":1,"exp":%d,"jti":"a","exp":99999999999}`, exp)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := token.Verify(key, signed(tc.claims), epoch)
			assert.ErrorIs(t, err, token.ErrMalformed)
			_, err = token.Unverified(signed(tc.claims))
			assert.ErrorIs(t, err, token.ErrMalformed, "Unverified reads claims the same way")
		})
	}
	// The same claims without the repeat verify: the refusal is the repeat's.
	_, err := token.Verify(key, signed(fmt.Sprintf(`{"sub":"ws-1","tools":["wu:status"],"iat":1,"exp":%d,"jti":"a"}`, exp)), epoch)
	assert.NoError(t, err)
}

// Package token mints and verifies the bearer tokens of the HTTP conductor sidecar.
//
// A token is three dot-separated parts: the literal version tag "cb1", the claims as
// unpadded base64url JSON, and the HMAC-SHA256 of "cb1.<claims>" under the workspace key,
// unpadded base64url. The claims are the subject, the tool globs it may see
// (doublestar patterns matched against canonical tool names), its read and write path
// scopes, issued-at and expiry (Unix seconds) and a random token id.
//
// The key is 32 random bytes kept in the workspace's state directory as token.key (mode
// 0600, outside the work tree: see kernel/statedir), created on first use. Rotating it is replacing that file ([Rotate]): every token
// minted before stops verifying at once.
//
// Invariants:
//
//   - [Verify] compares the signature in constant time (hmac.Equal) before it decodes
//     anything the token claims, and refuses an expired token, a token without expiry,
//     an unknown version and a subject [ValidateSubject] rejects. Its errors never echo
//     the token.
//   - A token whose iat or nbf lies more than [MaxClockSkew] ahead of the verifier's
//     clock is refused ([ErrNotYetValid]), and so is a claims object that names a
//     member twice at any depth (names compared as encoding/json matches them,
//     ignoring case): a token has one meaning, whoever reads it.
//   - A token has one spelling: both base64url parts are decoded strictly (the unused
//     low bits of the last character must be zero), so no re-spelled token verifies.
//   - [Mint] refuses claims that Verify would refuse, so a minted token always
//     verifies until it expires.
//   - The key file is created atomically (written aside, then linked into place): two
//     processes creating it at once end up sharing one key, never holding two.
//   - This package never reads scopes or subjects from anything but a verified token.
package token

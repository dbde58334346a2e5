package broker

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nkeys"
)

// IssuerFile is where a control plane keeps its NATS issuer, inside its state
// directory: the operator, account and system-account seeds and their JWTs.
const IssuerFile = "nats-issuer.json"

// Issuer is a control plane acting as its own NATS operator (decentralised JWT auth):
// one operator signs one account, CMDBRIDGE, which holds the two streams and every
// user; the account signs one user per workspace, with [WorkspacePermissions] in its
// JWT, and the control plane's own, unrestricted inside the account. A system account
// is there for the server's own use. The server trusts the operator and learns the
// accounts from [Issuer.ServerConfig]; users are never listed there, so enrolling a
// workspace changes nothing on the server.
type Issuer struct {
	operator, account, system nkeys.KeyPair
	f                         issuerFile
}

type issuerFile struct {
	OperatorSeed string `json:"operator_seed"`
	AccountSeed  string `json:"account_seed"`
	SystemSeed   string `json:"system_seed"`
	OperatorJWT  string `json:"operator_jwt"`
	AccountJWT   string `json:"account_jwt"`
	SystemJWT    string `json:"system_jwt"`
}

// AccountName is the name of the account every workspace and the control plane share.
const AccountName = "CMDBRIDGE"

// LoadIssuer reads stateDir's issuer; ok is false when there is none.
func LoadIssuer(stateDir string) (is *Issuer, ok bool, err error) {
	path := filepath.Join(stateDir, IssuerFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("nats issuer: %w", err)
	}
	is = &Issuer{}
	if err := json.Unmarshal(b, &is.f); err != nil {
		return nil, false, fmt.Errorf("nats issuer %s: %w", path, err)
	}
	for _, k := range []struct {
		seed string
		kp   *nkeys.KeyPair
	}{{is.f.OperatorSeed, &is.operator}, {is.f.AccountSeed, &is.account}, {is.f.SystemSeed, &is.system}} {
		if *k.kp, err = nkeys.FromSeed([]byte(k.seed)); err != nil {
			return nil, false, fmt.Errorf("nats issuer %s: %w", path, err)
		}
	}
	return is, true, nil
}

// OpenIssuer loads stateDir's issuer, creating it (fresh keys, signed account JWTs)
// the first time. created tells which.
func OpenIssuer(stateDir string) (is *Issuer, created bool, err error) {
	if is, ok, err := LoadIssuer(stateDir); err != nil || ok {
		return is, false, err
	}
	if is, err = newIssuer(); err != nil {
		return nil, false, fmt.Errorf("nats issuer: %w", err)
	}
	b, err := json.MarshalIndent(is.f, "", "  ")
	if err != nil {
		return nil, false, fmt.Errorf("nats issuer: %w", err)
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return nil, false, fmt.Errorf("nats issuer: %w", err)
	}
	path := filepath.Join(stateDir, IssuerFile)
	if err := os.WriteFile(path+".tmp", append(b, '\n'), 0o600); err != nil {
		return nil, false, fmt.Errorf("nats issuer: %w", err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return nil, false, fmt.Errorf("nats issuer: %w", err)
	}
	return is, true, nil
}

func newIssuer() (*Issuer, error) {
	var err error
	is := &Issuer{}
	if is.operator, err = nkeys.CreateOperator(); err != nil {
		return nil, err
	}
	if is.account, err = nkeys.CreateAccount(); err != nil {
		return nil, err
	}
	if is.system, err = nkeys.CreateAccount(); err != nil {
		return nil, err
	}
	opPub, _ := is.operator.PublicKey()
	accPub, _ := is.account.PublicKey()
	sysPub, _ := is.system.PublicKey()

	oc := jwt.NewOperatorClaims(opPub)
	oc.Name = "cmdbridge"
	oc.SystemAccount = sysPub
	if is.f.OperatorJWT, err = oc.Encode(is.operator); err != nil {
		return nil, err
	}
	ac := jwt.NewAccountClaims(accPub)
	ac.Name = AccountName
	// JetStream is off in an account unless its limits say otherwise.
	ac.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: -1, DiskStorage: -1, Streams: -1, Consumer: -1}
	if is.f.AccountJWT, err = ac.Encode(is.operator); err != nil {
		return nil, err
	}
	sc := jwt.NewAccountClaims(sysPub)
	sc.Name = "SYS"
	if is.f.SystemJWT, err = sc.Encode(is.operator); err != nil {
		return nil, err
	}
	for _, k := range []struct {
		kp  nkeys.KeyPair
		out *string
	}{{is.operator, &is.f.OperatorSeed}, {is.account, &is.f.AccountSeed}, {is.system, &is.f.SystemSeed}} {
		seed, err := k.kp.Seed()
		if err != nil {
			return nil, err
		}
		*k.out = string(seed)
	}
	return is, nil
}

// ServerConfig is the authorisation part of a nats-server configuration that trusts
// this issuer: the operator JWT, the system account, and a memory resolver preloaded
// with the two account JWTs. Add listen, jetstream and cluster settings around it.
func (is *Issuer) ServerConfig() string {
	accPub, _ := is.account.PublicKey()
	sysPub, _ := is.system.PublicKey()
	var b strings.Builder
	fmt.Fprintf(&b, "# cmdbridge NATS issuer: operator, account %s, system account\n", AccountName)
	fmt.Fprintf(&b, "operator: %s\n", is.f.OperatorJWT)
	fmt.Fprintf(&b, "system_account: %s\n", sysPub)
	b.WriteString("resolver: MEMORY\n")
	b.WriteString("resolver_preload: {\n")
	fmt.Fprintf(&b, "  %s: %s\n", accPub, is.f.AccountJWT)
	fmt.Fprintf(&b, "  %s: %s\n", sysPub, is.f.SystemJWT)
	b.WriteString("}\n")
	return b.String()
}

// WorkspaceCreds signs a user for workspace ws, confined by [WorkspacePermissions],
// valid until expires, and returns it as a NATS credentials file (user JWT and seed).
// Each call makes a new user key; an earlier file stays valid until it expires.
func (is *Issuer) WorkspaceCreds(ws string, expires time.Time) ([]byte, error) {
	p := WorkspacePermissions(ws)
	return is.userCreds("workspace "+ws, expires, func(uc *jwt.UserClaims) {
		uc.Permissions.Pub.Allow.Add(p.Publish...)
		uc.Permissions.Sub.Allow.Add(p.Subscribe...)
		if p.AllowResponses {
			uc.Permissions.Resp = &jwt.ResponsePermission{MaxMsgs: 1}
		}
	})
}

// ConductorCreds signs the control plane's own user: unrestricted inside the account
// (it provisions streams, sends commands, calls tools, tails every event), valid until
// expires.
func (is *Issuer) ConductorCreds(expires time.Time) ([]byte, error) {
	return is.userCreds("conductor", expires, func(*jwt.UserClaims) {})
}

func (is *Issuer) userCreds(name string, expires time.Time, limit func(*jwt.UserClaims)) ([]byte, error) {
	u, err := nkeys.CreateUser()
	if err != nil {
		return nil, fmt.Errorf("nats user %s: %w", name, err)
	}
	pub, _ := u.PublicKey()
	uc := jwt.NewUserClaims(pub)
	uc.Name = name
	uc.Expires = expires.Unix()
	limit(uc)
	tok, err := uc.Encode(is.account)
	if err != nil {
		return nil, fmt.Errorf("nats user %s: %w", name, err)
	}
	seed, err := u.Seed()
	if err != nil {
		return nil, fmt.Errorf("nats user %s: %w", name, err)
	}
	creds, err := jwt.FormatUserConfig(tok, seed)
	if err != nil {
		return nil, fmt.Errorf("nats user %s: %w", name, err)
	}
	return creds, nil
}

// CommandKey is the public key commands are signed with ([Issuer.SignCommand]): the
// account's, which a workspace also finds as the issuer of its credentials.
func (is *Issuer) CommandKey() string {
	pub, _ := is.account.PublicKey()
	return pub
}

// SignCommand signs a command for workspace ws, with message id key and body, for
// [SendCommand]: the value of its SignatureHeader.
func (is *Issuer) SignCommand(ws, key string, body []byte) (string, error) {
	sig, err := is.account.Sign(commandPayload(ws, key, body))
	if err != nil {
		return "", fmt.Errorf("sign command for %s: %w", ws, err)
	}
	return base64.RawURLEncoding.EncodeToString(sig), nil
}

// commandPayload is what a command's signature covers: the workspace it is for, its
// message id and its body, so it cannot be moved to another workspace.
func commandPayload(ws, key string, body []byte) []byte {
	b := make([]byte, 0, 32+len(ws)+len(key)+len(body))
	b = append(b, "cmdbridge-command\x00"...)
	b = append(b, ws...)
	b = append(b, 0)
	b = append(b, key...)
	b = append(b, 0)
	return append(b, body...)
}

// VerifyCommand checks sig (SignatureHeader) is commandKey's signature of a command
// for workspace ws with message id key and body.
func VerifyCommand(commandKey, ws, key string, body []byte, sig string) error {
	if sig == "" {
		return errors.New("the command is not signed")
	}
	raw, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil {
		return fmt.Errorf("command signature: %w", err)
	}
	kp, err := nkeys.FromPublicKey(commandKey)
	if err != nil {
		return fmt.Errorf("command key: %w", err)
	}
	if err := kp.Verify(commandPayload(ws, key, body), raw); err != nil {
		return fmt.Errorf("command not signed by the control plane for workspace %q and this message id", ws)
	}
	return nil
}

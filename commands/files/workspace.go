package files

import (
	"os"

	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/tool"
)

// rootOrCwd is the directory file:* confines to and git:* runs in: the workspace root
// when there is one, the current directory otherwise (spec §1.1).
func rootOrCwd(c *convention.Call) (root, cwd string, err error) {
	cwd, err = c.Dir()
	if err != nil {
		return "", "", err
	}
	root, _, err = delivery.FindRoot(c.Context(), cwd, c.LookupEnv)
	if delivery.CodeOf(err) == tool.CodeNoWorkspace {
		return cwd, cwd, nil
	}
	return root, cwd, err
}

// confineRoot is confine that also opens the root the path was checked against: the
// command then works on rel through it, so a path changed after the check cannot lead
// outside the workspace (delivery.ConfineRoot). The caller closes the root.
func confineRoot(c *convention.Call, p string, write bool) (r *os.Root, rel string, err error) {
	root, cwd, err := rootOrCwd(c)
	if err != nil {
		return nil, "", err
	}
	r, _, rel, err = delivery.ConfineRoot(root, cwd, p, write)
	return r, rel, err
}

// confine resolves a --path value for a file command (spec §3.3).
func confine(c *convention.Call, p string, write bool) (abs, rel string, err error) {
	root, cwd, err := rootOrCwd(c)
	if err != nil {
		return "", "", err
	}
	return delivery.Confine(root, cwd, p, write)
}

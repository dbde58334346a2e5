package proctree

import "os/exec"

// AttachUnder is Attach with the parent cgroup given: "" or a directory where no
// cgroup can be made selects the fallback of a host without cgroup v2.
func AttachUnder(cmd *exec.Cmd, parent string) *Tree { return attach(cmd, parent) }

// KernelAtLeast is kernelAtLeast.
func KernelAtLeast(major, minor int) bool { return kernelAtLeast(major, minor) }

package delivery

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/cmdbridge/cmdbridge/delivery/storage"
	"github.com/cmdbridge/cmdbridge/tool"
)

// StampRel is the root-relative stamp path of a WU (corpus §1.10).
func StampRel(id string) string { return StampsDir + "/" + id + ".done" }

// StampContent is the two-line stamp: "WU <id> — <title>" and "Completed: <date>".
func StampContent(id, title, date string) []byte {
	return []byte(fmt.Sprintf("WU %s \u2014 %s\nCompleted: %s\n", id, title, date))
}

// WriteStamp writes the stamp of a WU under root.
func WriteStamp(root, id, title, date string) error {
	if err := storage.WriteFileAtomic(filepath.Join(root, filepath.FromSlash(StampRel(id))), StampContent(id, title, date), 0o644); err != nil {
		return Errorf(tool.CodeIOError, "write stamp %s: %w", id, err)
	}
	return nil
}

// StampExists reports whether the stamp of a WU exists under root.
func StampExists(root, id string) bool {
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(StampRel(id))))
	return err == nil
}

var stampDateRe = regexp.MustCompile(`(?m)^Completed: (\d{4}-\d{2}-\d{2})\s*$`)

// StampDate returns the completion date recorded in a stamp, or "" when absent.
func StampDate(root, id string) string {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(StampRel(id))))
	if err != nil {
		return ""
	}
	if m := stampDateRe.FindStringSubmatch(string(data)); m != nil {
		return m[1]
	}
	return ""
}

var stampNameRe = regexp.MustCompile(`^(WU-\d+)\.done$`)

// StampIDs lists the WU ids that have a stamp under root, in directory order.
func StampIDs(root string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(StampsDir)))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, Errorf(tool.CodeIOError, "read stamps: %w", err)
	}
	var ids []string
	for _, e := range entries {
		if m := stampNameRe.FindStringSubmatch(e.Name()); m != nil && !strings.HasPrefix(e.Name(), ".") {
			ids = append(ids, m[1])
		}
	}
	return ids, nil
}

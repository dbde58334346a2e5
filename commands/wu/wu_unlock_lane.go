package wu

import (
	"fmt"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/lanelock"
	"github.com/cmdbridge/cmdbridge/tool"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "wu:unlock-lane",
		New: newWUUnlockLaneApp, Main: convention.Main(newWUUnlockLaneApp)})
}

func newWUUnlockLaneApp() *cli.App {
	return convention.App(convention.Spec{
		Name:        "wu:unlock-lane",
		Usage:       "List lane locks, or clear one with an audit reason",
		Destructive: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "lane", Usage: "the lane whose lock to clear"},
			&cli.StringFlag{Name: "reason", Usage: "why the lock is cleared (printed as an audit line)"},
			&cli.BoolFlag{Name: "force", Usage: "clear a lock that is not stale"},
			&cli.BoolFlag{Name: "list", Usage: "list every lane lock (read-only)"},
		},
		Rules: []convention.Rule{
			convention.Exclusive("list", "lane"),
			convention.Exclusive("list", "reason"),
			convention.Exclusive("list", "force"),
			convention.OneOf("list", "lane"),
			convention.Requires("lane", "reason"),
		},
		Effects: []tool.Effect{tool.ReadOnlyWhen(tool.IsSet("list"))},
		Action:  wuUnlockLane,
	})
}

func wuUnlockLane(c *convention.Call) error {
	ws, err := openWorkspace(c)
	if err != nil {
		return err
	}
	rt := c.Runtime()
	if c.Bool("list") {
		entries, err := lanelock.List(ws.Root)
		if err != nil {
			return delivery.Errorf(tool.CodeIOError, "list locks: %w", err)
		}
		data := wuLockList{Locks: []lockInfo{}}
		var rows [][]string
		for _, e := range entries {
			info := newLockInfo(c, &e.Lock, e.Path)
			data.Locks = append(data.Locks, info)
			age := "-"
			if info.AgeMinutes != nil {
				age = strconv.Itoa(*info.AgeMinutes) + "m"
			}
			stale := "no"
			if info.Stale {
				stale = "yes"
			}
			rows = append(rows, []string{dash(info.Lane), dash(info.WUID), dash(info.Owner), age, stale})
		}
		return c.Print(convention.Table("locks", []string{"lane", "wu", "owner", "age", "stale"}, rows), data)
	}
	lane := c.String("lane")
	lk, err := lanelock.Read(ws.Root, lane)
	if err != nil {
		return delivery.Errorf(tool.CodeIOError, "read lock of %s: %w", lane, err)
	}
	if lk == nil {
		return delivery.Errorf(tool.CodeNotFound, "lane %s has no lock (%s)", lane, lanelock.Rel(lane))
	}
	prev := newLockInfo(c, lk, lanelock.Rel(lane))
	forced := !lk.Stale(rt.Now(), rt.StaleThreshold())
	if forced && !c.Bool("force") {
		return (&delivery.Error{Code: tool.CodeLockActive,
			Message: fmt.Sprintf("lock of lane %s is active (%s by %s); use --force to clear it", lane, lk.WUID, lk.Owner)}).
			WithDetails(map[string]any{"holder": prev})
	}
	if _, err := lanelock.Release(ws.Root, lane, "", true); err != nil {
		return delivery.Errorf(tool.CodeIOError, "release lock of %s: %w", lane, err)
	}
	c.Progress("unlocked %s (was %s by %s): %s", lane, lk.WUID, lk.Owner, c.String("reason"))
	return c.Result("Unlocked "+lane, wuUnlockData{Lane: lane, LockPath: prev.Path, Previous: prev, Forced: forced})
}

// newLockInfo describes a lock as of the runtime's now; age is null without a timestamp.
func newLockInfo(c *convention.Call, lk *lanelock.Lock, rel string) lockInfo {
	rt := c.Runtime()
	info := lockInfo{Lane: lk.Lane, WUID: lk.WUID, Owner: lk.Owner, Timestamp: strPtr(lk.Timestamp),
		Stale: lk.Stale(rt.Now(), rt.StaleThreshold()), Path: rel}
	if ts, err := delivery.ParseTimestamp(lk.Timestamp); err == nil && lk.Valid {
		age := int(rt.Now().Sub(ts).Minutes())
		info.AgeMinutes = &age
	}
	return info
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// wuLockList is wu:unlock-lane --list's JSON data.
type wuLockList struct {
	Locks []lockInfo `json:"locks"`
}

// lockInfo is one lane lock.
type lockInfo struct {
	Lane       string  `json:"lane"`
	WUID       string  `json:"wu_id"`
	Owner      string  `json:"owner"`
	Timestamp  *string `json:"timestamp"`
	AgeMinutes *int    `json:"age_minutes"`
	Stale      bool    `json:"stale"`
	Path       string  `json:"path"`
}

// wuUnlockData is the JSON data of a cleared lock; forced is true when the lock was not
// stale and --force cleared it.
type wuUnlockData struct {
	Lane     string   `json:"lane"`
	LockPath string   `json:"lock_path"`
	Previous lockInfo `json:"previous"`
	Forced   bool     `json:"forced"`
}

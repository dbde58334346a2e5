package flow

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/commands"
	"github.com/cmdbridge/cmdbridge/commands/convention"
	"github.com/cmdbridge/cmdbridge/delivery"
	"github.com/cmdbridge/cmdbridge/delivery/ops"
	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

func init() {
	commands.Register(legacy.Command{Name: "metrics", Domain: "flow",
		New: newMetricsApp, Main: convention.Main(newMetricsApp)})
}

// metricKinds are the values of the KIND positional and of metrics:snapshot --type.
var metricKinds = []string{delivery.MetricsAll, delivery.MetricsDORA, delivery.MetricsLanes, delivery.MetricsFlow}

func newMetricsApp() *cli.App {
	return convention.App(convention.Spec{
		Name:     "metrics",
		Usage:    "Print DORA, lane and flow metrics over the last days (never writes; see metrics:snapshot)",
		ReadOnly: true, Idempotent: true,
		Flags: []cli.Flag{
			convention.Int("days", "window length in days, ending now", 7, nil, nil),
		},
		Args:   []convention.Arg{{Name: "kind", Choices: metricKinds, Usage: "which metrics to print (all|dora|lanes|flow; default all)"}},
		Action: metrics,
	})
}

func metrics(c *convention.Call) error {
	kind := c.Arg("kind")
	if kind == "" {
		kind = delivery.MetricsAll
	}
	m, err := computeMetrics(c, kind, c.Int("days"))
	if err != nil {
		return err
	}
	if c.JSON {
		return c.Print("", m)
	}
	return c.Print(metricsText(m), m)
}

// computeMetrics reads the workspace and computes the requested sections (ops.Metrics),
// printing its warnings.
func computeMetrics(c *convention.Call, kind string, days int) (delivery.Metrics, error) {
	ws, err := open(c)
	if err != nil {
		return delivery.Metrics{}, err
	}
	m, notes, err := ops.Metrics(c.Context(), ws, ops.MetricsInput{Kind: kind, Days: days, Now: c.Runtime().Now()})
	c.Notes(notes)
	return m, err
}

// metricsText renders the DORA, Lanes and Flow sections that were requested.
func metricsText(m delivery.Metrics) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Metrics (%s, last %d day(s))\n", m.Kind, m.Days)
	if d := m.DORA; d != nil {
		b.WriteString("DORA\n")
		df, lt, cf, mt := d.DeploymentFrequency, d.LeadTime, d.ChangeFailureRate, d.MeanTimeToRecovery
		fmt.Fprintf(&b, "  deployment_frequency: %s per week (%s)\n", num(df.DeploysPerWeek), df.Status)
		fmt.Fprintf(&b, "  lead_time: average %s h, median %s h, p90 %s h (%s)\n",
			num(lt.AverageHours), num(lt.MedianHours), num(lt.P90Hours), lt.Status)
		fmt.Fprintf(&b, "  change_failure_rate: %d/%d (%s%%) (%s)\n",
			cf.Failures, cf.TotalDeployments, num(cf.FailurePercentage), cf.Status)
		fmt.Fprintf(&b, "  mean_time_to_recovery: %s h over %d incident(s) (%s)\n", num(mt.AverageHours), mt.Incidents, mt.Status)
	}
	if m.Lanes != nil {
		b.WriteString("Lanes\n")
		rows := make([][]string, 0, len(m.Lanes))
		for _, l := range m.Lanes {
			rows = append(rows, []string{l.Lane, strconv.Itoa(l.Completed), strconv.Itoa(l.InProgress),
				strconv.Itoa(l.Blocked), num(l.AverageCycleHours), num(l.MedianCycleHours), l.Status})
		}
		b.WriteString(convention.Table("lanes", []string{"lane", "completed", "in_progress", "blocked",
			"avg_cycle_h", "median_cycle_h", "status"}, rows))
	}
	if f := m.Flow; f != nil {
		b.WriteString("Flow\n")
		fmt.Fprintf(&b, "  ready: %d\n  in_progress: %d\n  blocked: %d\n  waiting: %d\n  done: %d\n  total_active: %d\n",
			f.Ready, f.InProgress, f.Blocked, f.Waiting, f.Done, f.TotalActive)
	}
	return b.String()
}

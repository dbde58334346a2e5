// Package greet is the scaffold's test subject for a program that names its registries
// itself: one small urfave/cli command, demo:greet, written the plain way, registered in
// the program's own legacy registry (Commands, through Register) and scaffolded into
// its own native registry (tools.Register), with a typed enum flag of its own.
package greet

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cmdbridge/cmdbridge/tool/legacy"
)

// Commands holds the program's legacy commands.
var Commands = legacy.NewRegistry()

// Register adds a command to Commands.
func Register(c legacy.Command) {
	if err := Commands.Add(c); err != nil {
		panic(err)
	}
}

func init() {
	Register(legacy.Command{Name: "demo:greet", New: newGreetApp, Main: mainGreet})
}

func newGreetApp() *cli.App {
	return &cli.App{
		Name:      "demo:greet",
		Usage:     "Greet someone a number of times",
		ArgsUsage: "[<GREETING>]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "name", Usage: "who to greet", Required: true},
			&cli.IntFlag{Name: "times", Usage: "how many greetings", Value: 1},
			&cli.UintFlag{Name: "max-width", Usage: "wrap=column at which lines wrap (0: never)"},
			&cli.BoolFlag{Name: "shout", Usage: "upper-case the greeting"},
			&cli.StringSliceFlag{Name: "cc", Usage: "also greet (repeatable)"},
			&cli.GenericFlag{Name: "tone", Usage: "how to sound (warm|dry)", Value: &enum{choices: []string{"warm", "dry"}, value: "warm"}},
			&cli.BoolFlag{Name: "json", Usage: "print the result as one JSON envelope"},
		},
		Metadata: map[string]any{legacy.MetaReadOnly: true, legacy.MetaIdempotent: true},
		Action:   greet,
	}
}

func mainGreet(ctx context.Context) {
	if err := newGreetApp().RunContext(ctx, os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "[demo:greet] usage:", err)
		cli.OsExiter(2)
	}
}

// enum accepts one of a fixed list of words; as a legacy.Choices its flag's schema is
// an enum.
type enum struct {
	choices []string
	value   string
}

func (e *enum) Choices() []string { return append([]string(nil), e.choices...) }

func (e *enum) Set(s string) error {
	for _, c := range e.choices {
		if s == c {
			e.value = s
			return nil
		}
	}
	return fmt.Errorf("expected one of %s", strings.Join(e.choices, ", "))
}

func (e *enum) String() string { return e.value }

type greeting struct {
	Lines []string `json:"lines"`
	Tone  string   `json:"tone"`
}

func greet(c *cli.Context) error {
	word := "Hello"
	if c.Args().Len() > 0 {
		word = c.Args().First()
	}
	var lines []string
	for _, who := range append([]string{c.String("name")}, c.StringSlice("cc")...) {
		for i := 0; i < c.Int("times"); i++ {
			line := word + ", " + who
			if c.Bool("shout") {
				line = strings.ToUpper(line)
			}
			lines = append(lines, line)
		}
	}
	data := greeting{Lines: lines, Tone: c.Generic("tone").(fmt.Stringer).String()}
	if !c.Bool("json") {
		fmt.Println(strings.Join(lines, "\n"))
		return nil
	}
	out, err := json.MarshalIndent(map[string]any{"ok": true, "command": "demo:greet", "data": data,
		"error": nil, "warnings": []string{}}, "", "  ")
	if err != nil {
		return cli.Exit(err.Error(), 1)
	}
	fmt.Println(string(out))
	return nil
}

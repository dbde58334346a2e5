// Command dbkit applies numbered SQL migrations to a database.
//
// dbkit is an outside module for cmdbridge's tests, written the way such tools are
// written without cmdbridge in mind (it does not import it): the whole program lives in
// package main, so no other module can import its app; main pre-parses --env-file from
// os.Args (only the two-word form "--env-file FILE") and loads that file into the
// environment before the app runs; global flags read environment variables; main prints
// errors as "Error: …" and exits 2; one command reads a positional its usage never
// declares; commands have aliases; drop deletes the database; wait calls os.Exit.
//
// The "database" is a file named by --url ("file:PATH"): the names of the applied
// migrations, one per line.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
)

// version is dbkit's version.
const version = "2.3.0"

func main() {
	loadEnvFiles(os.Args[1:])
	app := newApp()
	if err := app.Run(os.Args); err != nil {
		fmt.Fprintf(os.Stderr, "Error: %s\n", err)
		os.Exit(2)
	}
}

// loadEnvFiles reads each file named by "--env-file FILE" in args (default .env, which
// may be missing) and sets the variables it defines that are not set already.
func loadEnvFiles(args []string) {
	files := []string{}
	for i := 0; i < len(args); i++ {
		if args[i] == "--env-file" && i+1 < len(args) {
			files = append(files, args[i+1])
			i++
		}
	}
	if len(files) == 0 {
		files = []string{".env"}
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			k = strings.TrimSpace(k)
			if _, set := os.LookupEnv(k); !set {
				os.Setenv(k, strings.Trim(strings.TrimSpace(v), `"`))
			}
		}
	}
}

func newApp() *cli.App {
	return &cli.App{
		Name:    "dbkit",
		Usage:   "apply numbered SQL migrations to a database",
		Version: version,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "url", Aliases: []string{"u"}, Usage: "database `URL` (file:PATH)", EnvVars: []string{"DATABASE_URL"}},
			&cli.StringSliceFlag{Name: "env-file", Usage: "load environment variables from `FILE` (read before the flags are parsed)", Value: cli.NewStringSlice(".env")},
			&cli.StringFlag{Name: "migrations-dir", Aliases: []string{"d"}, Usage: "directory of the migration files", EnvVars: []string{"DBKIT_MIGRATIONS_DIR"}, Value: "./db/migrations"},
			&cli.StringFlag{Name: "schema-file", Aliases: []string{"s"}, Usage: "file dump writes the schema to", EnvVars: []string{"DBKIT_SCHEMA_FILE"}, Value: "./db/schema.sql"},
			&cli.BoolFlag{Name: "no-dump-schema", Usage: "do not update the schema file after a migration", EnvVars: []string{"DBKIT_NO_DUMP_SCHEMA"}},
		},
		Commands: []*cli.Command{
			{
				Name:    "new",
				Aliases: []string{"n"},
				Usage:   "write a new migration file",
				// The name is read below but declared nowhere: no ArgsUsage.
				Action: func(c *cli.Context) error {
					name := c.Args().First()
					if name == "" {
						return errors.New("please specify a name for the new migration")
					}
					dir := c.String("migrations-dir")
					if err := os.MkdirAll(dir, 0o755); err != nil {
						return err
					}
					files, err := migrations(dir)
					if err != nil {
						return err
					}
					file := filepath.Join(dir, fmt.Sprintf("%04d_%s.sql", len(files)+1, name))
					if err := os.WriteFile(file, []byte("-- migrate:up\n\n-- migrate:down\n"), 0o644); err != nil {
						return err
					}
					fmt.Fprintf(c.App.Writer, "Creating migration: %s\n", file)
					return nil
				},
			},
			{
				Name:  "create",
				Usage: "create the database",
				Action: func(c *cli.Context) error {
					path, err := database(c)
					if err != nil {
						return err
					}
					if _, err := os.Stat(path); err == nil {
						return fmt.Errorf("database %s already exists", path)
					}
					fmt.Fprintf(c.App.Writer, "Creating: %s\n", path)
					return os.WriteFile(path, nil, 0o644)
				},
			},
			{
				Name:  "drop",
				Usage: "drop the database",
				Action: func(c *cli.Context) error {
					path, err := database(c)
					if err != nil {
						return err
					}
					fmt.Fprintf(c.App.Writer, "Dropping: %s\n", path)
					return os.Remove(path)
				},
			},
			{
				Name:  "up",
				Usage: "create the database if needed and apply every pending migration",
				Flags: []cli.Flag{&cli.BoolFlag{Name: "strict", Usage: "fail if a migration older than the last applied one is pending"}},
				Action: func(c *cli.Context) error {
					path, err := database(c)
					if err != nil {
						return err
					}
					if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
						fmt.Fprintf(c.App.Writer, "Creating: %s\n", path)
						if err := os.WriteFile(path, nil, 0o644); err != nil {
							return err
						}
					}
					return migrate(c, path)
				},
			},
			{
				Name:  "migrate",
				Usage: "apply every pending migration",
				Flags: []cli.Flag{&cli.BoolFlag{Name: "strict", Usage: "fail if a migration older than the last applied one is pending"}},
				Action: func(c *cli.Context) error {
					path, err := database(c)
					if err != nil {
						return err
					}
					return migrate(c, path)
				},
			},
			{
				Name:    "rollback",
				Aliases: []string{"down"},
				Usage:   "roll back the most recent migration",
				Action: func(c *cli.Context) error {
					path, err := database(c)
					if err != nil {
						return err
					}
					applied, err := readApplied(path)
					if err != nil {
						return err
					}
					if len(applied) == 0 {
						return errors.New("can't rollback: no migrations have been applied")
					}
					last := applied[len(applied)-1]
					fmt.Fprintf(c.App.Writer, "Rolling back: %s\n", last)
					return writeApplied(c, path, applied[:len(applied)-1])
				},
			},
			{
				Name:  "status",
				Usage: "list applied and pending migrations",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "exit-code", Usage: "exit 3 when a migration is pending"},
					&cli.BoolFlag{Name: "quiet", Usage: "print nothing"},
				},
				Action: func(c *cli.Context) error {
					path, err := database(c)
					if err != nil {
						return err
					}
					applied, err := readApplied(path)
					if err != nil {
						return err
					}
					files, err := migrations(c.String("migrations-dir"))
					if err != nil {
						return err
					}
					pending := 0
					for _, f := range files {
						mark := "[ ]"
						if slices.Contains(applied, f) {
							mark = "[X]"
						} else {
							pending++
						}
						if !c.Bool("quiet") {
							fmt.Fprintf(c.App.Writer, "%s %s\n", mark, f)
						}
					}
					if !c.Bool("quiet") {
						fmt.Fprintf(c.App.Writer, "\nApplied: %d\nPending: %d\n", len(files)-pending, pending)
					}
					if pending > 0 && c.Bool("exit-code") {
						return cli.Exit("", 3)
					}
					return nil
				},
			},
			{
				Name:      "dump",
				Usage:     "write the database schema to a file",
				ArgsUsage: "[FILE]",
				Action: func(c *cli.Context) error {
					path, err := database(c)
					if err != nil {
						return err
					}
					file := c.String("schema-file")
					if c.Args().Present() {
						file = c.Args().First()
					}
					return dump(c, path, file)
				},
			},
			{
				Name:  "load",
				Usage: "apply the given migration files without recording them",
				// Every argument is a file; declared nowhere.
				Action: func(c *cli.Context) error {
					if c.NArg() == 0 {
						return errors.New("please name at least one migration file")
					}
					for _, f := range c.Args().Slice() {
						data, err := os.ReadFile(f)
						if err != nil {
							return err
						}
						fmt.Fprintf(c.App.Writer, "Loading: %s (%d bytes)\n", f, len(data))
					}
					return nil
				},
			},
			{
				Name:  "wait",
				Usage: "wait until the database is available",
				Action: func(c *cli.Context) error {
					path, err := database(c)
					if err != nil {
						return err
					}
					if _, err := os.Stat(path); err != nil {
						fmt.Fprintln(c.App.ErrWriter, "Error: database is not available")
						os.Exit(1)
					}
					fmt.Fprintln(c.App.Writer, "Database is ready.")
					return nil
				},
			},
		},
	}
}

// database is the file the --url names.
func database(c *cli.Context) (string, error) {
	url := c.String("url")
	if url == "" {
		return "", errors.New("no database URL: set --url or DATABASE_URL (a .env file may set it)")
	}
	path, ok := strings.CutPrefix(url, "file:")
	if !ok || path == "" {
		return "", fmt.Errorf("unsupported database URL %q (dbkit knows file:PATH)", url)
	}
	return path, nil
}

// migrations lists the migration files of dir, sorted.
func migrations(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".sql") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}

func readApplied(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("database %s does not exist", path)
		}
		return nil, err
	}
	defer f.Close()
	var applied []string
	s := bufio.NewScanner(f)
	for s.Scan() {
		if line := strings.TrimSpace(s.Text()); line != "" {
			applied = append(applied, line)
		}
	}
	return applied, s.Err()
}

func writeApplied(c *cli.Context, path string, applied []string) error {
	data := strings.Join(applied, "\n")
	if len(applied) > 0 {
		data += "\n"
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		return err
	}
	if c.Bool("no-dump-schema") {
		return nil
	}
	return dump(c, path, c.String("schema-file"))
}

func migrate(c *cli.Context, path string) error {
	applied, err := readApplied(path)
	if err != nil {
		return err
	}
	files, err := migrations(c.String("migrations-dir"))
	if err != nil {
		return err
	}
	n := 0
	for _, f := range files {
		if slices.Contains(applied, f) {
			continue
		}
		if c.Bool("strict") && len(applied) > 0 && f < applied[len(applied)-1] {
			return fmt.Errorf("migration %s is older than the last applied one (%s)", f, applied[len(applied)-1])
		}
		fmt.Fprintf(c.App.Writer, "Applying: %s\n", f)
		applied = append(applied, f)
		n++
	}
	if n == 0 {
		fmt.Fprintln(c.App.Writer, "Nothing to apply.")
		return nil
	}
	return writeApplied(c, path, applied)
}

func dump(c *cli.Context, path, file string) error {
	applied, err := readApplied(path)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("-- dbkit schema\n")
	for _, a := range applied {
		fmt.Fprintf(&b, "-- applied: %s\n", a)
	}
	fmt.Fprintf(c.App.Writer, "Writing: %s\n", file)
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

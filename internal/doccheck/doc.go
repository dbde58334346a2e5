// Package doccheck holds the tests that keep README.md and docs/*.md true to the tree.
//
// TestDocExamples runs every shell block (```sh, ```bash, ```shell, ```console) as
// printed, in a scratch copy of the repository with freshly built cmdbridge and delivery
// binaries on PATH and in bin/. The blocks of one file run in order as one shell session:
// variables and the working directory carry from a block to the next. A block runs under
// `set -e -o pipefail`, stdin empty, HOME and TMPDIR inside the scratch directory. An
// HTML comment on the line before a block's fence changes how it is run:
//
//	<!-- doccheck: skip (reason) -->   not run; counted and reported with its reason
//	<!-- doccheck: needs bwrap curl --> skipped, with that reason, when a program is missing
//	<!-- doccheck: serve -->            the block's last command is a server: it starts in
//	                                    the background, the URL it prints becomes $URL
//	                                    for the blocks after it, and it is stopped (SIGTERM)
//	                                    once the file's blocks have run
//
// Every fence must name its language (```text for diagrams and sample output), so a
// shell example cannot escape the check by omission.
//
// TestDocNames checks what the docs name: relative links and repository paths in
// backticks exist; `cmdbridge …` command lines, in prose and in every shell block (run or
// skipped), use subcommands and flags the command line has (its urfave/cli app, built
// in-process); and Go identifiers `pkg.Name` and `pkg.Type.Member`, in prose and in ```go
// blocks, whose pkg names a package of this module (or a directory, as in
// `commands/convention.App`) are declared there. Names used on purpose although they name
// nothing in the tree are listed in `allowed`, each with its reason.
package doccheck

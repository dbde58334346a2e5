module example.com/v3kit

go 1.26.0

require github.com/urfave/cli/v3 v3.14.0

// Command ohm finds and repairs the bottlenecks of a graph by
// effective-resistance rewiring and trains graph neural networks on the
// result. See the README for the commands.
package main

import (
	"os"

	"github.com/ohmgnn/ohm/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}

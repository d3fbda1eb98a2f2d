// Command gen writes the console's generated wire types (see package wire).
package main

import (
	"fmt"
	"os"

	"fixthis/app/wire"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen OUTPUT.ts")
		os.Exit(2)
	}
	ts, err := wire.TypeScript(wire.Console)
	if err == nil {
		err = os.WriteFile(os.Args[1], []byte(ts), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// Command gen writes the console's generated wire types (see package wire) into a
// directory: wire.gen.ts and the files it re-exports.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"fixthis/app/wire"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gen OUTPUT_DIR")
		os.Exit(2)
	}
	files, err := wire.TypeScript(wire.Console, wire.MainFile)
	for _, f := range files {
		if err == nil {
			err = os.WriteFile(filepath.Join(os.Args[1], f.Name+".ts"), []byte(f.Text), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

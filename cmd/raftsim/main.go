// Command raftsim runs raftlab's simulation without a screen: it plays a
// schedule file, a book scenario or a random fault run and prints what
// happened as JSON. docs/raftsim.md describes every command, flag and key.
//
//	go run ./cmd/raftsim run -f docs/examples/partition-3-2.json
//
// main only wires the process to raftsim(), so tests run the whole command
// in-process.
package main

import "os"

func main() {
	os.Exit(raftsim(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

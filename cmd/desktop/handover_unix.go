//go:build unix

package main

import "syscall"

// handOver replaces this process with the window program: the same
// process id, signals and terminal, as if it had been started directly.
func handOver(bin string, argv []string) error { return syscall.Exec(bin, argv, syscall.Environ()) }

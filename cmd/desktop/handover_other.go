//go:build !unix

package main

import (
	"errors"
	"os"
	"os/exec"
)

// handOver runs the window program with this program's terminal and
// exits with its status: there is no exec(2) here to replace the process.
func handOver(bin string, argv []string) error {
	cmd := exec.Command(bin, argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		return err
	}
	os.Exit(0)
	return nil
}

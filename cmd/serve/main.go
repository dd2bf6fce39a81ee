// Command serve serves raftlab's web directory over HTTP for local use.
//
//	go run ./cmd/serve -addr 127.0.0.1:8080 -dir web
//
// It serves .wasm as application/wasm and sends the precompressed raftlab.wasm.br or
// raftlab.wasm.gz that `make release` writes when the browser accepts them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"raftlab/internal/webserver"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "raftlab:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on, host:port")
	dir := fs.String("dir", "web", "directory to serve")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}

	h, err := webserver.Handler(*dir)
	if err != nil {
		return err
	}
	for _, name := range webserver.MissingFiles(*dir, "index.html") {
		fmt.Fprintf(stderr, "raftlab: warning: %s is missing\n", filepath.Join(*dir, name))
	}
	for _, name := range webserver.MissingFiles(*dir, "raftlab.wasm", "wasm_exec.js") {
		fmt.Fprintf(stderr, "raftlab: warning: %s is missing (run `make wasm`)\n", filepath.Join(*dir, name))
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "raftlab: serving on %s\n", displayURL(ln.Addr()))

	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}
}

// displayURL turns a listener address into a URL a browser can open: an unspecified
// host (0.0.0.0 or ::) becomes localhost.
func displayURL(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return "http://" + a.String()
	}
	host := tcp.IP.String()
	if tcp.IP == nil || tcp.IP.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(tcp.Port))
}

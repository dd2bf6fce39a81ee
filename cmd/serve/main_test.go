package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDisplayURL(t *testing.T) {
	cases := []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "http://127.0.0.1:8080"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 80}, "http://localhost:80"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 9000}, "http://localhost:9000"},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 9000}, "http://[::1]:9000"},
	}
	for _, c := range cases {
		if got := displayURL(c.addr); got != c.want {
			t.Errorf("displayURL(%v) = %q, want %q", c.addr, got, c.want)
		}
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file.txt")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"missing dir", []string{"-dir", filepath.Join(dir, "nope")}, "no such file"},
		{"dir is a file", []string{"-dir", file}, "not a directory"},
		{"bad address", []string{"-dir", dir, "-addr", "127.0.0.1:notaport"}, "unknown port"},
		{"extra argument", []string{"-dir", dir, "extra"}, "unexpected arguments"},
		{"unknown flag", []string{"-port", "80"}, "flag provided but not defined"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		err := run(c.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.wantErr)
		}
		if strings.Contains(stdout.String(), "serving on") {
			t.Errorf("%s: printed the serving line before failing", c.name)
		}
	}
}

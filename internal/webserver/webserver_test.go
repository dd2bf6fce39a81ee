package webserver

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// site lays out a served directory next to a file that must never be reachable.
type site struct {
	root   string // parent of dir
	dir    string // the served directory
	wasm   []byte // content of raftlab.wasm
	gzWasm []byte // gzip of wasm
	brWasm []byte // stand-in bytes for the .br sibling (the server never decodes it)
}

func newSite(t *testing.T) *site {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "web")
	s := &site{root: root, dir: dir}
	s.wasm = bytes.Repeat([]byte("\x00asm\x01\x00\x00\x00raftlab"), 200)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	if _, err := zw.Write(s.wasm); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	s.gzWasm = gz.Bytes()
	s.brWasm = []byte("brotli-encoded bytes")

	write := func(rel string, data []byte) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("secret.txt", []byte("outside the served directory"))
	write("web/index.html", []byte("<!doctype html><title>raftlab</title>"))
	write("web/embed.js", []byte("console.log('embed')"))
	write("web/raftlab.wasm", s.wasm)
	write("web/raftlab.wasm.gz", s.gzWasm)
	write("web/raftlab.wasm.br", s.brWasm)
	write("web/only-gz.js", []byte("var a = 1;"))
	write("web/only-gz.js.gz", []byte("gz"))
	write("web/docs/index.html", []byte("<p>docs</p>"))
	write("web/empty/keep.txt", []byte("x"))
	write("web/.hidden", []byte("dotfile"))
	// The precompressed siblings must not be older than the file they were made from.
	now := time.Now()
	for _, rel := range []string{"raftlab.wasm.gz", "raftlab.wasm.br", "only-gz.js.gz"} {
		if err := os.Chtimes(filepath.Join(dir, rel), now, now); err != nil {
			t.Fatal(err)
		}
	}
	old := now.Add(-time.Hour)
	for _, rel := range []string{"raftlab.wasm", "only-gz.js"} {
		if err := os.Chtimes(filepath.Join(dir, rel), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "secret.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *site) handler(t *testing.T) http.Handler {
	t.Helper()
	h, err := Handler(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// do sends a request straight to the handler, so that the URL path reaches it
// exactly as given (an HTTP client would clean it first).
func do(h http.Handler, method, urlPath string, header map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "/", nil)
	r.URL.Path = urlPath
	for k, v := range header {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestContentTypes(t *testing.T) {
	s := newSite(t)
	h := s.handler(t)
	cases := []struct {
		path, want string
	}{
		{"/raftlab.wasm", "application/wasm"},
		{"/index.html", "text/html; charset=utf-8"},
		{"/", "text/html; charset=utf-8"},
		{"/embed.js", "text/javascript; charset=utf-8"},
		{"/docs/", "text/html; charset=utf-8"},
	}
	for _, c := range cases {
		w := do(h, "GET", c.path, nil)
		if w.Code != http.StatusOK {
			t.Errorf("GET %s: status %d, want 200", c.path, w.Code)
			continue
		}
		if got := w.Header().Get("Content-Type"); got != c.want {
			t.Errorf("GET %s: Content-Type %q, want %q", c.path, got, c.want)
		}
		if got := w.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("GET %s: X-Content-Type-Options %q, want nosniff", c.path, got)
		}
		if got := w.Header().Get("Cache-Control"); got != "no-cache" {
			t.Errorf("GET %s: Cache-Control %q, want no-cache", c.path, got)
		}
		if w.Header().Get("ETag") == "" {
			t.Errorf("GET %s: no ETag", c.path)
		}
	}
}

func TestContentTypeFunc(t *testing.T) {
	for name, want := range map[string]string{
		"a.WASM":    "application/wasm",
		"x/y.css":   "text/css; charset=utf-8",
		"noext":     "application/octet-stream",
		"data.json": "application/json",
	} {
		if got := ContentType(name); got != want {
			t.Errorf("ContentType(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestEncodingNegotiation(t *testing.T) {
	s := newSite(t)
	h := s.handler(t)
	cases := []struct {
		accept   string
		encoding string
		body     []byte
	}{
		{"", "", s.wasm},
		{"identity", "", s.wasm},
		{"gzip", "gzip", s.gzWasm},
		{"gzip, deflate, br", "br", s.brWasm},
		{"br;q=1.0, gzip;q=0.8", "br", s.brWasm},
		{"br;q=0, gzip", "gzip", s.gzWasm},
		{"BR", "br", s.brWasm},
		{"*", "br", s.brWasm},
		{"*, br;q=0", "gzip", s.gzWasm},
		{"gzip;q=0, br;q=0", "", s.wasm},
		{"gzip;q=junk", "", s.wasm},
		{"x-gzip", "gzip", s.gzWasm},
		{"deflate", "", s.wasm},
	}
	for _, c := range cases {
		w := do(h, "GET", "/raftlab.wasm", map[string]string{"Accept-Encoding": c.accept})
		if w.Code != http.StatusOK {
			t.Fatalf("Accept-Encoding %q: status %d", c.accept, w.Code)
		}
		if got := w.Header().Get("Content-Encoding"); got != c.encoding {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", c.accept, got, c.encoding)
		}
		if got := w.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: Vary %q, want Accept-Encoding", c.accept, got)
		}
		if got := w.Header().Get("Content-Type"); got != "application/wasm" {
			t.Errorf("Accept-Encoding %q: Content-Type %q, want application/wasm", c.accept, got)
		}
		if !bytes.Equal(w.Body.Bytes(), c.body) {
			t.Errorf("Accept-Encoding %q: body of %d bytes is not the expected variant", c.accept, w.Body.Len())
		}
		if got, want := w.Header().Get("Content-Length"), strconv.Itoa(len(c.body)); got != want {
			t.Errorf("Accept-Encoding %q: Content-Length %q, want %s", c.accept, got, want)
		}
		decoded := w.Header().Get(DecodedLengthHeader)
		if c.encoding == "" && decoded != "" {
			t.Errorf("Accept-Encoding %q: %s set on an unencoded response", c.accept, DecodedLengthHeader)
		}
		if want := strconv.Itoa(len(s.wasm)); c.encoding != "" && decoded != want {
			t.Errorf("Accept-Encoding %q: %s = %q, want %s", c.accept, DecodedLengthHeader, decoded, want)
		}
	}
}

func TestGzipVariantDecodes(t *testing.T) {
	s := newSite(t)
	srv := httptest.NewServer(s.handler(t))
	defer srv.Close()
	// The default transport asks for gzip and decodes it transparently.
	resp, err := http.Get(srv.URL + "/raftlab.wasm")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Uncompressed {
		t.Errorf("transport did not see a gzip response")
	}
	if !bytes.Equal(body, s.wasm) {
		t.Errorf("decoded body differs from raftlab.wasm")
	}
}

func TestETagDiffersPerEncoding(t *testing.T) {
	s := newSite(t)
	h := s.handler(t)
	plain := do(h, "GET", "/raftlab.wasm", nil).Header().Get("ETag")
	gz := do(h, "GET", "/raftlab.wasm", map[string]string{"Accept-Encoding": "gzip"}).Header().Get("ETag")
	br := do(h, "GET", "/raftlab.wasm", map[string]string{"Accept-Encoding": "br"}).Header().Get("ETag")
	if plain == gz || plain == br || gz == br {
		t.Fatalf("ETags must differ per variant: plain %s gzip %s br %s", plain, gz, br)
	}
	w := do(h, "GET", "/raftlab.wasm", map[string]string{"Accept-Encoding": "br", "If-None-Match": br})
	if w.Code != http.StatusNotModified {
		t.Errorf("If-None-Match with the br ETag: status %d, want 304", w.Code)
	}
	w = do(h, "GET", "/raftlab.wasm", map[string]string{"Accept-Encoding": "gzip", "If-None-Match": br})
	if w.Code != http.StatusOK {
		t.Errorf("If-None-Match with the br ETag on a gzip request: status %d, want 200", w.Code)
	}
}

func TestStaleSiblingIgnored(t *testing.T) {
	s := newSite(t)
	h := s.handler(t)
	// Rebuild raftlab.wasm after its compressed siblings were made.
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(s.dir, "raftlab.wasm"), later, later); err != nil {
		t.Fatal(err)
	}
	w := do(h, "GET", "/raftlab.wasm", map[string]string{"Accept-Encoding": "gzip, br"})
	if got := w.Header().Get("Content-Encoding"); got != "" {
		t.Errorf("stale sibling served with Content-Encoding %q", got)
	}
	if !bytes.Equal(w.Body.Bytes(), s.wasm) {
		t.Errorf("stale sibling served instead of raftlab.wasm")
	}
}

func TestOnlyGzipSibling(t *testing.T) {
	s := newSite(t)
	h := s.handler(t)
	w := do(h, "GET", "/only-gz.js", map[string]string{"Accept-Encoding": "br, gzip"})
	if got := w.Header().Get("Content-Encoding"); got != "gzip" {
		t.Errorf("Content-Encoding %q, want gzip", got)
	}
	w = do(h, "GET", "/embed.js", map[string]string{"Accept-Encoding": "br, gzip"})
	if got := w.Header().Get("Content-Encoding"); got != "" {
		t.Errorf("file without siblings: Content-Encoding %q", got)
	}
	if got := w.Header().Get("Vary"); got != "" {
		t.Errorf("file without siblings: Vary %q", got)
	}
}

func TestRangeOfEncodedFile(t *testing.T) {
	s := newSite(t)
	srv := httptest.NewServer(s.handler(t))
	defer srv.Close()
	req, err := http.NewRequest("GET", srv.URL+"/raftlab.wasm", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", "br")
	req.Header.Set("Range", "bytes=0-4")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusPartialContent {
		t.Fatalf("status %d, want 206", resp.StatusCode)
	}
	if !bytes.Equal(body, s.brWasm[:5]) || resp.ContentLength != 5 {
		t.Errorf("range body %q (length %d), want the first 5 bytes of the .br file", body, resp.ContentLength)
	}
}

func TestHeadRequest(t *testing.T) {
	s := newSite(t)
	h := s.handler(t)
	w := do(h, "HEAD", "/raftlab.wasm", map[string]string{"Accept-Encoding": "gzip"})
	if w.Code != http.StatusOK || w.Body.Len() != 0 {
		t.Errorf("HEAD: status %d body %d bytes", w.Code, w.Body.Len())
	}
	if got := w.Header().Get("Content-Encoding"); got != "gzip" {
		t.Errorf("HEAD: Content-Encoding %q, want gzip", got)
	}
}

func TestNotFoundAndTraversal(t *testing.T) {
	s := newSite(t)
	h := s.handler(t)
	paths := []string{
		"/missing.html",
		"/../secret.txt",
		"/docs/../../secret.txt",
		"/..",
		"/./index.html",
		"/..\\secret.txt",
		"/%2e%2e/secret.txt",
		"/index.html\x00",
		"/.hidden",
		"/link.txt",     // symbolic link to a file outside the directory
		"/empty/",       // directory without index.html: no listing
		"//etc/passwd",  // empty segment
		"/index.html/x", // path below a file
	}
	for _, p := range paths {
		w := do(h, "GET", p, nil)
		if w.Code != http.StatusNotFound {
			t.Errorf("GET %q: status %d, want 404", p, w.Code)
		}
		if strings.Contains(w.Body.String(), "outside the served directory") {
			t.Errorf("GET %q leaked a file outside the served directory", p)
		}
	}

	// Through a real HTTP round trip with an unclean path.
	srv := httptest.NewServer(h)
	defer srv.Close()
	req, err := http.NewRequest("GET", srv.URL, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.URL.Opaque = "/../../secret.txt"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || bytes.Contains(body, []byte("outside")) {
		t.Errorf("raw ../ request: status %d body %q", resp.StatusCode, body)
	}
}

func TestDirectoryRedirect(t *testing.T) {
	s := newSite(t)
	h := s.handler(t)
	r := httptest.NewRequest("GET", "/docs?x=1", nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != http.StatusMovedPermanently {
		t.Fatalf("GET /docs: status %d, want 301", w.Code)
	}
	if got := w.Header().Get("Location"); got != "/docs/?x=1" {
		t.Errorf("Location %q, want /docs/?x=1", got)
	}
}

func TestMethodNotAllowed(t *testing.T) {
	s := newSite(t)
	h := s.handler(t)
	w := do(h, "POST", "/index.html", nil)
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d, want 405", w.Code)
	}
	if got := w.Header().Get("Allow"); got != "GET, HEAD" {
		t.Errorf("Allow %q", got)
	}
}

func TestHandlerBadDir(t *testing.T) {
	dir := t.TempDir()
	if _, err := Handler(filepath.Join(dir, "nope")); err == nil {
		t.Error("Handler on a missing directory returned no error")
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Handler(file); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Handler on a file: error %v, want 'not a directory'", err)
	}
}

func TestMissingFiles(t *testing.T) {
	s := newSite(t)
	got := MissingFiles(s.dir, "index.html", "wasm_exec.js", "docs")
	if len(got) != 2 || got[0] != "wasm_exec.js" || got[1] != "docs" {
		t.Errorf("MissingFiles = %v, want [wasm_exec.js docs]", got)
	}
}

func TestNotFoundServesThePage(t *testing.T) {
	s := newSite(t)
	page := "<!doctype html><title>Not here</title><a href=\"/\">home</a>"
	if err := os.WriteFile(filepath.Join(s.dir, NotFoundPage), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	h := s.handler(t)
	for _, p := range []string{"/nope.html", "/a/b/c", "/.hidden", "/../secret.txt"} {
		w := do(h, "GET", p, nil)
		if w.Code != http.StatusNotFound {
			t.Errorf("GET %q: status %d, want 404", p, w.Code)
		}
		if got := w.Body.String(); got != page {
			t.Errorf("GET %q: body %q, want the 404 page", p, got)
		}
		if ct := w.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("GET %q: Content-Type %q", p, ct)
		}
	}
	w := do(h, "HEAD", "/nope.html", nil)
	if w.Code != http.StatusNotFound || w.Body.Len() != 0 {
		t.Errorf("HEAD: status %d, %d bytes of body; want 404 and none", w.Code, w.Body.Len())
	}
	// The page itself is an ordinary file too.
	if w := do(h, "GET", "/"+NotFoundPage, nil); w.Code != http.StatusOK {
		t.Errorf("GET the page by name: status %d", w.Code)
	}
}

// The web directory's own 404 page leads home.
func TestWebNotFoundPageLinksHome(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "web", NotFoundPage))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`href="/"`)) {
		t.Errorf("web/%s has no link to the app (href=\"/\")", NotFoundPage)
	}
}

// Package webserver serves raftlab's web directory: the app page, the WebAssembly
// binary and the embed script.
//
// It is a static file server with three additions over http.FileServer:
//   - .wasm files are served as application/wasm, which WebAssembly.instantiateStreaming needs;
//   - when the client accepts br or gzip and a precompressed sibling (X.br, X.gz) exists that is
//     not older than X, the sibling is sent with Content-Encoding and Vary: Accept-Encoding;
//   - no directory listings and no dotfiles; paths cannot leave the served directory, not even
//     through symbolic links (the files are opened through an os.Root);
//   - a path that names nothing gets the directory's 404.html (NotFoundPage) with status 404, so
//     a mistyped link shows a page with a way home rather than a bare line of text.
//
// Every response carries Cache-Control: no-cache, so browsers keep a copy but revalidate it
// (the file names carry no content hash), and a strong ETag derived from size and modification time.
package webserver

import (
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// DecodedLengthHeader is set on responses that carry a precompressed file. It holds the
// length in bytes of the file after decoding, so that a page can show download progress
// against the bytes that fetch's ReadableStream yields (which are decoded bytes).
const DecodedLengthHeader = "X-Decoded-Length"

// NotFoundPage is the file, in the served directory, sent with every 404 response.
const NotFoundPage = "404.html"

// encodings lists the precompressed variants the server knows, in order of preference.
var encodings = []struct {
	token string // Content-Encoding token
	ext   string // file name suffix of the precompressed sibling
	etag  string // ETag suffix
}{
	{"br", ".br", "br"},
	{"gzip", ".gz", "gz"},
}

// contentTypes overrides mime.TypeByExtension, whose answers depend on the host's
// /etc/mime.types.
var contentTypes = map[string]string{
	".wasm": "application/wasm",
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".json": "application/json",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".jpg":  "image/jpeg",
	".webp": "image/webp",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
	".md":   "text/markdown; charset=utf-8",
	".gz":   "application/gzip",
	".br":   "application/octet-stream",
}

// ContentType returns the Content-Type the server sends for a file name.
func ContentType(name string) string {
	ext := strings.ToLower(path.Ext(name))
	if ct, ok := contentTypes[ext]; ok {
		return ct
	}
	if ct := mime.TypeByExtension(ext); ct != "" {
		return ct
	}
	return "application/octet-stream"
}

// Handler serves the files under dir. It returns an error when dir is not an existing directory.
// The handler keeps dir open for the life of the process.
func Handler(dir string) (http.Handler, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("webserver: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("webserver: %s is not a directory", dir)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("webserver: %w", err)
	}
	return &handler{fsys: root.FS()}, nil
}

type handler struct {
	fsys fs.FS
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name, fi, ok := h.resolve(w, r)
	if !ok {
		return
	}
	hdr := w.Header()
	setFileHeaders(hdr, name)
	serveName, serveInfo, encoding, etagSuffix := h.pickEncoding(hdr, name, fi, r.Header.Get("Accept-Encoding"))
	if encoding != "" {
		hdr.Set("Content-Encoding", encoding)
		hdr.Set(DecodedLengthHeader, strconv.FormatInt(fi.Size(), 10))
		// http.ServeContent leaves Content-Length out when Content-Encoding is set. The
		// encoded file's size is the length of a whole response; a range response gets
		// no length here and ServeContent writes its own.
		if r.Header.Get("Range") == "" {
			hdr.Set("Content-Length", strconv.FormatInt(serveInfo.Size(), 10))
		}
	}
	hdr.Set("ETag", etag(serveInfo, etagSuffix))

	f, err := h.fsys.Open(serveName)
	if err != nil {
		hdr.Del("Content-Encoding")
		hdr.Del(DecodedLengthHeader)
		http.Error(w, "cannot open file", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	rs, ok := f.(interface {
		Read([]byte) (int, error)
		Seek(int64, int) (int64, error)
	})
	if !ok {
		http.Error(w, "file is not seekable", http.StatusInternalServerError)
		return
	}
	http.ServeContent(w, r, "", serveInfo.ModTime(), rs)
}

// resolve finds the regular file a request names (a directory's
// index.html), or answers the request itself (not found, or a redirect to
// the directory's slash) and reports false.
func (h *handler) resolve(w http.ResponseWriter, r *http.Request) (string, fs.FileInfo, bool) {
	name, ok := fileName(r.URL.Path)
	if !ok {
		h.notFound(w, r)
		return "", nil, false
	}
	fi, err := fs.Stat(h.fsys, name)
	if err != nil {
		h.notFound(w, r)
		return "", nil, false
	}
	if fi.IsDir() {
		if !strings.HasSuffix(r.URL.Path, "/") {
			target := path.Base(r.URL.Path) + "/"
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, target, http.StatusMovedPermanently)
			return "", nil, false
		}
		name = path.Join(name, "index.html")
		if fi, err = fs.Stat(h.fsys, name); err != nil {
			h.notFound(w, r)
			return "", nil, false
		}
	}
	if !fi.Mode().IsRegular() {
		h.notFound(w, r)
		return "", nil, false
	}
	return name, fi, true
}

// pickEncoding picks a precompressed sibling of name (fi) that the client
// accepts, if there is one as new as the file: the name and size to serve,
// its encoding ("" for the file itself) and its ETag's suffix. Any fresh
// sibling makes the answer vary by Accept-Encoding.
func (h *handler) pickEncoding(hdr http.Header, name string, fi fs.FileInfo, accept string) (string, fs.FileInfo, string, string) {
	serveName, serveInfo, encoding, etagSuffix := name, fi, "", ""
	accepted := acceptedEncodings(accept)
	anySibling := false
	for _, enc := range encodings {
		si, err := fs.Stat(h.fsys, name+enc.ext)
		if err != nil || !si.Mode().IsRegular() || si.ModTime().Before(fi.ModTime()) {
			continue // missing, or stale: older than the file it was made from
		}
		anySibling = true
		if encoding == "" && accepted[enc.token] {
			serveName, serveInfo, encoding, etagSuffix = name+enc.ext, si, enc.token, enc.etag
		}
	}
	if anySibling {
		hdr.Add("Vary", "Accept-Encoding")
	}
	return serveName, serveInfo, encoding, etagSuffix
}

// setFileHeaders sets the headers every served file carries: its type,
// revalidation on each use, and no sniffing of the type.
func setFileHeaders(hdr http.Header, name string) {
	hdr.Set("Content-Type", ContentType(name))
	hdr.Set("Cache-Control", "no-cache")
	hdr.Set("X-Content-Type-Options", "nosniff")
}

// notFound answers 404 with the served directory's NotFoundPage, or with plain text
// when the directory has none.
func (h *handler) notFound(w http.ResponseWriter, r *http.Request) {
	page, err := fs.ReadFile(h.fsys, NotFoundPage)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	hdr := w.Header()
	setFileHeaders(hdr, NotFoundPage)
	hdr.Set("Content-Length", strconv.Itoa(len(page)))
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(page)
	}
}

// fileName maps a URL path to a name inside the served directory. It refuses paths
// with a dot segment or a component that starts with a dot, backslashes and NUL bytes.
// The empty name stands for the directory itself and maps to ".".
func fileName(urlPath string) (string, bool) {
	if strings.ContainsAny(urlPath, "\\\x00") {
		return "", false
	}
	trimmed := strings.Trim(urlPath, "/")
	if trimmed == "" {
		return ".", true
	}
	for _, seg := range strings.Split(trimmed, "/") {
		if seg == "" || strings.HasPrefix(seg, ".") {
			return "", false
		}
	}
	if !fs.ValidPath(trimmed) {
		return "", false
	}
	return trimmed, true
}

// acceptedEncodings parses an Accept-Encoding header into the set of codings with a
// non-zero quality. A "*" entry accepts every coding not listed with q=0.
func acceptedEncodings(header string) map[string]bool {
	out := map[string]bool{}
	refused := map[string]bool{}
	star := false
	for part := range strings.SplitSeq(header, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		token, params, _ := strings.Cut(part, ";")
		token = strings.ToLower(strings.TrimSpace(token))
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, found := strings.Cut(strings.TrimSpace(p), "=")
			if found && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				} else {
					q = 0
				}
			}
		}
		if token == "x-gzip" {
			token = "gzip"
		}
		switch {
		case q <= 0:
			refused[token] = true
		case token == "*":
			star = true
		default:
			out[token] = true
		}
	}
	if star {
		for _, enc := range encodings {
			if !refused[enc.token] {
				out[enc.token] = true
			}
		}
	}
	for t := range refused {
		delete(out, t)
	}
	return out
}

func etag(fi fs.FileInfo, suffix string) string {
	tag := strconv.FormatInt(fi.ModTime().UnixNano(), 36) + "-" + strconv.FormatInt(fi.Size(), 36)
	if suffix != "" {
		tag += "-" + suffix
	}
	return `"` + tag + `"`
}

// MissingFiles reports which of the named files are absent from dir, so that a command
// can warn before serving a page whose assets have not been built.
func MissingFiles(dir string, names ...string) []string {
	var missing []string
	for _, n := range names {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(n)))
		if err != nil || !fi.Mode().IsRegular() {
			missing = append(missing, n)
		}
	}
	return missing
}

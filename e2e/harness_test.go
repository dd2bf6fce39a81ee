//go:build browser || desktop

package e2e

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Environment variables read by the harness.
const (
	// envCI set to "true" turns every skip of requireOrSkip into a failure.
	envCI = "CI"
	// envArtifacts overrides the directory for screenshots (default <repo>/artifacts).
	envArtifacts = "RAFTLAB_ARTIFACTS"
)

// inCI reports whether the tests run under CI, where nothing may be skipped.
func inCI() bool { return os.Getenv(envCI) == "true" }

// requireOrSkip skips the test because something it needs is missing. Under CI=true it
// fails the test instead, so that a broken CI setup cannot pass by skipping everything.
func requireOrSkip(t testing.TB, reason string) {
	t.Helper()
	if inCI() {
		t.Fatalf("required under CI=true: %s", reason)
	}
	t.Skip(reason)
}

// requireTool returns the path of an executable, or skips (fails under CI) when it is missing.
func requireTool(t testing.TB, name, debianPackage string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		requireOrSkip(t, fmt.Sprintf("%s not found (Debian package %s; `make deps` installs it)", name, debianPackage))
	}
	return p
}

var (
	rootOnce sync.Once
	rootDir  string
	rootErr  error
)

// repoRoot returns the directory that holds go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	rootOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			rootErr = err
			return
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				rootDir = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				rootErr = fmt.Errorf("no go.mod above the test's working directory")
				return
			}
			dir = parent
		}
	})
	if rootErr != nil {
		t.Fatal(rootErr)
	}
	return rootDir
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// screenshotDir returns artifacts/screenshots/<kind>/<test name>, creates it and logs it
// once per test. kind is "browser" or "desktop".
func screenshotDir(t testing.TB, kind string) string {
	t.Helper()
	base := os.Getenv(envArtifacts)
	if base == "" {
		base = filepath.Join(repoRoot(t), "artifacts")
	}
	dir := filepath.Join(base, "screenshots", kind, unsafeName.ReplaceAllString(t.Name(), "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("creating the screenshot directory: %v", err)
	}
	t.Logf("screenshots: %s", dir)
	return dir
}

var shotCounts = struct {
	sync.Mutex
	n map[string]int
}{n: map[string]int{}}

// nextShot numbers the screenshots of a test in the order they are taken, across all
// the browsers or windows the test uses.
func nextShot(t testing.TB) int {
	shotCounts.Lock()
	defer shotCounts.Unlock()
	shotCounts.n[t.Name()]++
	return shotCounts.n[t.Name()]
}

// shotName makes a file name for the n-th screenshot of a test.
func shotName(n int, name string) string {
	name = strings.TrimSuffix(name, ".png")
	return fmt.Sprintf("%02d-%s.png", n, unsafeName.ReplaceAllString(name, "_"))
}

// imageStats reports how much of a PNG the most common color covers (0..1) and how many
// distinct colors it has (counting stops at 1000).
func imageStats(path string) (dominantShare float64, colors int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", path, err)
	}
	return pixelStats(img)
}

func pixelStats(img image.Image) (float64, int, error) {
	b := img.Bounds()
	if b.Empty() {
		return 0, 0, fmt.Errorf("empty image")
	}
	counts := map[[4]uint32]int{}
	best := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			k := [4]uint32{r >> 8, g >> 8, bl >> 8, a >> 8}
			if _, seen := counts[k]; !seen && len(counts) >= 1000 {
				continue
			}
			counts[k]++
			if counts[k] > best {
				best = counts[k]
			}
		}
	}
	return float64(best) / float64(b.Dx()*b.Dy()), len(counts), nil
}

// blankShare is the share of pixels above which one color makes an image count as blank.
const blankShare = 0.995

// requireNotBlank fails the test when the PNG at path is one flat color (more than
// 99.5% of its pixels share a color), which is what a window or canvas that drew
// nothing looks like.
func requireNotBlank(t testing.TB, path string) {
	t.Helper()
	share, colors, err := imageStats(path)
	if err != nil {
		t.Fatalf("reading screenshot: %v", err)
	}
	if share > blankShare {
		t.Fatalf("screenshot %s is blank: one color covers %.2f%% of it (%d colors)", path, share*100, colors)
	}
}

// syncBuffer is an io.Writer safe for concurrent writes, for process output.
type syncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

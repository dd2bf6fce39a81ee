//go:build desktop

// These tests draw real frames with Ebiten, so they need a display (run
// them under Xvfb: scripts/with-xvfb.sh go test -tags desktop ./viz/draw).
// They are behind the desktop tag because a test binary that imports Ebiten
// panics at start without a display, which would break a plain go test.
//
// With RAFTLAB_SHOTS=dir set, every scene is also saved there as a PNG.

package draw

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz"
	"raftlab/viz/frame"
)

// TestMain runs the tests inside Ebiten's game loop, where images can be
// drawn and read back (Ebiten's own tests do the same).
func TestMain(m *testing.M) {
	code := 0
	g := &testGame{run: func() { code = m.Run() }}
	ebiten.SetWindowSize(320, 240)
	if err := ebiten.RunGame(g); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(code)
}

type testGame struct {
	run  func()
	done bool
}

func (g *testGame) Update() error {
	if !g.done {
		g.done = true
		g.run()
	}
	return ebiten.Termination
}

func (g *testGame) Draw(*ebiten.Image)         {}
func (g *testGame) Layout(w, h int) (int, int) { return w, h }

// render paints f into a new image and returns its pixels.
func render(t *testing.T, f *frame.Frame, name string) *image.RGBA {
	t.Helper()
	w, h := int(f.W), int(f.H)
	img := screenImage(w, h)
	defer img.Deallocate()
	c := &canvas{dst: img, sc: 1, tc: &textCache{}}
	pal := lightPalette()
	if f.Theme == frame.ThemeDark {
		pal = darkPalette()
	}
	c.paintFrame(f, pal)
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	img.ReadPixels(out.Pix)
	if dir := os.Getenv("RAFTLAB_SHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		fp, err := os.Create(filepath.Join(dir, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		defer fp.Close()
		if err := png.Encode(fp, out); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// near reports whether the pixel at p is within tol of want in every
// channel.
func near(img *image.RGBA, p viz.Point, want colorF, tol int) bool {
	got := img.RGBAAt(int(math.Round(p.X)), int(math.Round(p.Y)))
	w := want.rgba()
	d := func(a, b uint8) int { return int(math.Abs(float64(a) - float64(b))) }
	return d(got.R, w.R) <= tol && d(got.G, w.G) <= tol && d(got.B, w.B) <= tol
}

func pixel(img *image.RGBA, p viz.Point) color.RGBA {
	return img.RGBAAt(int(math.Round(p.X)), int(math.Round(p.Y)))
}

func TestNodesAreDrawnInTheirRoleColours(t *testing.T) {
	for _, theme := range []string{"light", "dark"} {
		s := storedScene(t, "roles-"+theme)
		f := s.Frame
		img := render(t, f, "roles-"+theme)
		pal := lightPalette()
		if theme == "dark" {
			pal = darkPalette()
		}
		// Just left of centre: off the name's letters.
		probe := func(i int) viz.Point {
			n := f.Nodes[i]
			return n.Center.Add(viz.Pt(-n.R*0.7, 0))
		}
		if p := probe(s.Leader - 1); !near(img, p, pal.tone(frame.ToneLeader), 12) {
			t.Errorf("%s: the leader's disc is %v, want the leader colour", theme, pixel(img, p))
		}
		if p := probe(s.Follower - 1); !near(img, p, pal.tone(frame.ToneFollower), 12) {
			t.Errorf("%s: a follower's disc is %v, want the follower colour", theme, pixel(img, p))
		}
		if p := probe(s.Crashed - 1); !near(img, p, pal.tone(frame.ToneDown), 12) {
			t.Errorf("%s: the crashed machine's disc is %v, want the dark crashed colour", theme, pixel(img, p))
		}
		// The background shows between the machines.
		if p := s.Regions["cluster"].Center(); !near(img, p.Add(viz.Pt(0, -s.RingR*0.3)), toF(pal.BG), 40) && !near(img, p, toF(pal.BG), 40) {
			t.Errorf("%s: the cluster's centre is %v, want the background", theme, pixel(img, p))
		}
	}
}

func TestCutLinksAndPanelsAreDrawn(t *testing.T) {
	f := storedScene(t, "cut-link").Frame
	img := render(t, f, "cut-link")
	pal := lightPalette()
	var cut frame.LinkView
	for _, l := range f.Links {
		if l.State == frame.LinkCut {
			cut = l
		}
	}
	if cut.State != frame.LinkCut {
		t.Fatal("no cut link in the frame")
	}
	// The scissors sit on the middle of a cut link, on a disc of
	// background; somewhere on that disc is the cut colour.
	mid := cut.Seg.At(0.5)
	found := false
	for dx := -6.0; dx <= 6 && !found; dx++ {
		for dy := -6.0; dy <= 6 && !found; dy++ {
			found = near(img, mid.Add(viz.Pt(dx, dy)), toF(pal.LinkCut), 60)
		}
	}
	if !found {
		t.Error("no scissors in the cut colour on the cut link")
	}
	for _, p := range f.Panels {
		inner := viz.Pt(p.Rect.Right()-3, p.Rect.Y+p.Rect.H/2)
		if !near(img, inner, toF(pal.Surface), 6) {
			t.Errorf("panel %v is %v inside its right edge, want the surface colour", p.Kind, pixel(img, inner))
		}
	}
}

// TestScenes draws the app in the states a reader meets, on a desktop and
// a phone canvas, and checks that each frame shows something in each of
// its regions (set RAFTLAB_SHOTS to look at them).
func TestScenes(t *testing.T) {
	n := 0
	for _, s := range loadFrames(t, "scenes.json.gz") {
		if s.Regions["toolbar"].W == 0 {
			continue // a frame for another test
		}
		n++
		t.Run(s.Name, func(t *testing.T) {
			f := s.Frame
			img := render(t, f, s.Name)
			for _, region := range []string{"toolbar", "cluster", "logs", "timeline"} {
				if f.Embed && region == "timeline" {
					continue // a figure has none: its controls take the strip
				}
				if colours(img, s.Regions[region]) < 3 {
					t.Errorf("the %s region holds fewer than 3 colours: nothing is drawn there", region)
				}
			}
			if f.Menu != nil && colours(img, f.Menu.Rect) < 3 {
				t.Error("the open menu is blank")
			}
			if f.Embed {
				// A figure: its words, its one panel, drawn, and every word
				// whole in the real font.
				if f.Caption == nil || len(f.Panels) != 1 {
					t.Fatalf("an embedded figure shows %d panels and caption %v; want its one panel and its words", len(f.Panels), f.Caption != nil)
				}
				if colours(img, f.Panels[0].Rect) < 3 {
					t.Error("the figure's panel is blank")
				}
				if cut := f.Overflows(Measure); len(cut) > 0 {
					t.Errorf("words cut in the real font: %v", cut)
				}
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d scenes stored", n)
	}
}

// colours counts the distinct colours in r, sampled every 3 pixels.
func colours(img *image.RGBA, r viz.Rect) int {
	seen := map[color.RGBA]bool{}
	for y := r.Y; y < r.Bottom(); y += 3 {
		for x := r.X; x < r.Right(); x += 3 {
			seen[img.RGBAAt(int(x), int(y))] = true
		}
	}
	return len(seen)
}

func TestMeasureGrowsWithTextAndSize(t *testing.T) {
	a, b := Measure("leader", 13), Measure("leader A", 13)
	if !(a > 0 && b > a) {
		t.Errorf("widths %v and %v: a longer text should be wider", a, b)
	}
	if c := Measure("leader", 26); math.Abs(c-2*a) > 2 {
		t.Errorf("twice the size measures %v, want about %v", c, 2*a)
	}
	if Measure("", 13) != 0 {
		t.Error("empty text has width")
	}
}

func TestRoleShapesDiffer(t *testing.T) {
	// A candidate's diamond leaves the corners of its box empty; a
	// leader's square fills them.
	s := storedScene(t, "shapes")
	f := s.Frame
	img := render(t, f, "shapes")
	n := f.Nodes[s.Leader-1]
	corner := n.Center.Add(viz.Pt(n.R*0.75, -n.R*0.75))
	if !near(img, corner, lightPalette().tone(frame.ToneLeader), 20) {
		t.Errorf("the leader's corner is %v, want it filled (a square)", pixel(img, corner))
	}
	for _, m := range f.Nodes {
		if m.Tone == frame.ToneFollower {
			c := m.Center.Add(viz.Pt(m.R*0.8, -m.R*0.8))
			if near(img, c, lightPalette().tone(frame.ToneFollower), 20) {
				t.Errorf("a follower's box corner is filled: it should be a disc")
			}
		}
	}
}

// tone is a tone's colour, for tests that look for it on screen.
func (p *palette) tone(t frame.Tone) colorF { return toF(p.Tone(t)) }

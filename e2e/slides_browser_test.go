//go:build browser

package e2e

import (
	"bytes"
	"image/gif"
	"strings"
	"testing"

	"raftlab/viz/app"
)

// TestPicturesForSlides presses the setup menu's buttons for slides: the stage as a
// PNG at twice its size on screen, the stage and the whole frame as SVG, and a panel
// as a PNG at twice its size.
func TestPicturesForSlides(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	ev := watchPage(b)
	playAndPause(t, b)

	s := openShareMenu(b)
	n := ev.downloads()
	clickWidget(b, s, "slides.stage.png")
	img := decodePNG(t, "the stage picture", ev.waitDownload(n, "raftlab-stage.png"))
	after := appState(b)
	if after.Menu != "" {
		t.Errorf("the menu %q stayed open", after.Menu)
	}
	sc := after.Screen
	w, h := float64(img.Bounds().Dx()), float64(img.Bounds().Dy())
	if w < 2*sc.Cluster.W || w > 2*(sc.Cluster.W+16) || h < 2*(sc.Logs.Bottom()-sc.Cluster.Y) || h > 2*sc.Height {
		t.Errorf("the stage picture is %.0fx%.0f; the cluster is %.0fx%.0f from y %.0f and the logs end at %.0f: want twice the stage",
			w, h, sc.Cluster.W, sc.Cluster.H, sc.Cluster.Y, sc.Logs.Bottom())
	}
	if share, _, err := pixelStats(img); err != nil || share > blankShare {
		t.Errorf("the stage picture is blank (%.3f of one colour, %v)", share, err)
	}

	s = openShareMenu(b)
	n = ev.downloads()
	clickWidget(b, s, "slides.stage.svg")
	stage := ev.waitDownload(n, "raftlab-stage.svg")
	s = openShareMenu(b)
	n = ev.downloads()
	clickWidget(b, s, "slides.all.svg")
	all := ev.waitDownload(n, "raftlab.svg")
	for name, doc := range map[string][]byte{"stage": stage, "all": all} {
		if !bytes.HasPrefix(doc, []byte("<svg")) || !bytes.Contains(doc, []byte(">A<")) {
			t.Errorf("the %s SVG is not a picture of the machines: %.200s", name, doc)
		}
	}
	if !strings.Contains(string(all), `viewBox="0 0 1280 800"`) {
		t.Errorf("the whole SVG is not the whole frame: %.200s", all)
	}

	s = openShareMenu(b)
	var safety app.PanelState
	for _, p := range s.Screen.Panels {
		if p.Kind == "Safety" {
			safety = p
		}
	}
	n = ev.downloads()
	clickWidget(b, s, "slides.panel.safety")
	img = decodePNG(t, "the safety panel's picture", ev.waitDownload(n, "raftlab-safety.png"))
	if dx, dy := img.Bounds().Dx(), img.Bounds().Dy(); absDiff(uint32(dx), uint32(2*safety.Rect.W)) > 2 || absDiff(uint32(dy), uint32(2*safety.Rect.H)) > 2 {
		t.Errorf("the Safety panel's picture is %dx%d; the panel is %.0fx%.0f", dx, dy, safety.Rect.W, safety.Rect.H)
	}

	// The last 3 seconds as an animated GIF: a frame every twentieth of a
	// virtual second, the stage moving from one to the next, and the run
	// back where it was.
	s = openShareMenu(b)
	before := appState(b)
	n = ev.downloads()
	clickWidget(b, s, "slides.gif")
	anim, err := gif.DecodeAll(bytes.NewReader(ev.waitDownload(n, "raftlab-stage.gif")))
	if err != nil {
		t.Fatalf("the animation is not a GIF: %v", err)
	}
	if len(anim.Image) != 61 {
		t.Errorf("the animation has %d frames, want 61 (3 s, 20 a second)", len(anim.Image))
	}
	// A steady cluster repeats itself every heartbeat, so the first and last
	// frames may well match; the frames between must not all do.
	moved := false
	for _, im := range anim.Image[1:] {
		moved = moved || !bytes.Equal(anim.Image[0].Pix, im.Pix)
	}
	if !moved {
		t.Error("the stage did not change over the 3 seconds of a running cluster")
	}
	after = appState(b)
	if after.TraceHash != before.TraceHash || after.NowMs != before.NowMs {
		t.Errorf("the run moved: %s at %.3f ms, was %s at %.3f ms", after.TraceHash, after.NowMs, before.TraceHash, before.NowMs)
	}
}

//go:build browser

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app"
)

// A figure in a book's page must not trap the page: a vertical swipe or a turn
// of the wheel that starts on a figure, on nothing the reader drags, scrolls the
// page, while a drag that starts on a machine is still the figure's. These tests
// read a page of every figure, as a phone with real touch events and as a desk
// with the wheel and the mouse, and try both on each figure.

// figureIn is, in the page, figure id's iframe's window.raftlab (or null).
const figureIn = `(document.querySelector("#fig-%s iframe") || {}).contentWindow && document.querySelector("#fig-%s iframe").contentWindow.raftlab`

// onFigure finds, in figure id's canvas, a point a touch there leaves to the page
// (grabs is false): the stage's free space, the words or a control. It returns
// the point in the page's coordinates (CSS pixels of the viewport).
const onFigure = `(function (id) {
	var frame = document.querySelector("#fig-" + id + " iframe");
	var app = frame.contentWindow.raftlab;
	var r = frame.getBoundingClientRect();
	for (var y = 20; y < r.height - 20; y += 10) {
		for (var x = 20; x < r.width - 20; x += 10) {
			if (!app.grabs(x, y)) return {x: r.left + x, y: r.top + y, ok: true};
		}
	}
	return {ok: false};
})(%q)`

type pagePoint struct {
	X, Y float64
	OK   bool
}

// figureApp is figure id's state.
func figureApp(t *testing.T, b *browser, id string) app.Snapshot {
	t.Helper()
	var s app.Snapshot
	if err := json.Unmarshal([]byte(evalJS[string](b, fmt.Sprintf(figureIn+`.snapshot()`, id, id))), &s); err != nil {
		t.Fatalf("%s: its snapshot: %v", id, err)
	}
	return s
}

// frameOrigin is where figure id's iframe starts in the viewport.
func frameOrigin(b *browser, id string) viz.Point {
	r := evalJS[[]float64](b, fmt.Sprintf(`(function () { var r = document.querySelector("#fig-%s iframe").getBoundingClientRect(); return [r.left, r.top]; })()`, id))
	return viz.Pt(r[0], r[1])
}

// showFigure scrolls figure id to the middle of the view and waits until it runs.
func showFigure(t *testing.T, b *browser, id string) {
	t.Helper()
	evalJS[chromedp.Void](b, fmt.Sprintf(`document.querySelector("#fig-%s").scrollIntoView({block: "center"})`, id))
	if err := b.poll(fmt.Sprintf(`!!(%s && %s.ready)`, fmt.Sprintf(figureIn, id, id), fmt.Sprintf(figureIn, id, id)), 60*time.Second); err != nil {
		t.Fatalf("figure %s did not start: %v", id, err)
	}
}

func scrollY(b *browser) float64 { return evalJS[float64](b, `window.scrollY`) }

// settledScrollY is the page's scroll once it has stopped moving (a wheel's
// scroll is animated), waiting up to two seconds.
func settledScrollY(b *browser) float64 {
	last := scrollY(b)
	for i := 0; i < 40; i++ {
		time.Sleep(50 * time.Millisecond)
		y := scrollY(b)
		if y == last && i >= 4 {
			return y
		}
		last = y
	}
	return last
}

// touchPath puts a finger down at p, moves it to q in steps a frame apart and
// lifts it. Like a real swipe it leaves the tap slop at once, with a first
// step of 16 px, lest a loaded machine's slow start make a long press.
func touchPath(t *testing.T, b *browser, p, q viz.Point, steps int) {
	t.Helper()
	id := 1.0
	send := func(typ input.DispatchTouchEventType, at *viz.Point) {
		ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
		defer cancel()
		points := []*input.TouchPoint{}
		if at != nil {
			points = append(points, &input.TouchPoint{X: at.X, Y: at.Y, ID: &id})
		}
		if _, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: points}); err != nil {
			t.Fatalf("touch %s: %v", typ, err)
		}
	}
	send(input.DispatchTouchEventTypeTouchStart, &p)
	d := q.Sub(p)
	first := math.Min(16/d.Len(), 1)
	for i := 0; i <= steps; i++ {
		at := p.Add(d.Mul(first + (1-first)*float64(i)/float64(steps)))
		send(input.DispatchTouchEventTypeTouchMove, &at)
		time.Sleep(16 * time.Millisecond)
	}
	send(input.DispatchTouchEventTypeTouchEnd, nil)
}

// dragOut is where to drop a machine of s to cut it off: in a zone other than
// its own where the machines are drawn in zones, else the nearest point of the
// canvas beyond the ring by the gesture's distance (1.5 radii, at least 24 px)
// and a margin. A figure's stage on a phone is small, and the drop may be
// outside it, on the figure's words: the drag is the figure's all the way.
func dragOut(t *testing.T, s app.Snapshot, m app.MachineState) viz.Point {
	t.Helper()
	if s.Layout != "ring" {
		// Drawn in zones (a partition's sides, or failure domains): another
		// zone's middle, where the machine moves.
		for _, z := range s.Screen.Zones {
			if !z.Contains(viz.Pt(m.X, m.Y)) {
				return z.Center()
			}
		}
	}
	ring := viz.Pt(s.Screen.Ring[0], s.Screen.Ring[1])
	need := s.Screen.Ring[2] + math.Max(1.5*m.R, 24) + 8
	best, bestD := viz.Point{}, math.Inf(1)
	for y := 6.0; y < s.Screen.Height-6; y += 4 {
		for x := 6.0; x < s.Screen.Width-6; x += 4 {
			p := viz.Pt(x, y)
			if d := p.Dist(viz.Pt(m.X, m.Y)); p.Dist(ring) >= need && d < bestD {
				best, bestD = p, d
			}
		}
	}
	if math.IsInf(bestD, 1) {
		t.Fatalf("no point of the %vx%v canvas is %.0f px from the ring's centre", s.Screen.Width, s.Screen.Height, need)
	}
	return best
}

// checkDragIsTheFigures drags machine 1 of figure id (from page point at, by
// move, in the figure's own coordinates) and fails unless the page stayed where
// it was and the figure acted on the world.
func checkDragIsTheFigures(t *testing.T, b *browser, id string, drag func(from, to viz.Point)) {
	t.Helper()
	s := figureApp(t, b, id)
	m := s.Machines[0]
	to := dragOut(t, s, m)
	before := settledScrollY(b)
	o := frameOrigin(b, id)
	drag(o.Add(viz.Pt(m.X, m.Y)), o.Add(to))
	if moved := settledScrollY(b) - before; math.Abs(moved) > 2 {
		t.Errorf("%s: a drag that started on machine %s scrolled the page by %.0f px", id, m.Name, moved)
	}
	after := waitInFigure(t, b, id, fmt.Sprintf("the drag of %s from (%.0f, %.0f) to (%.0f, %.0f) in a %s to act on the world", m.Name, m.X, m.Y, to.X, to.Y, s.Layout), func(a app.Snapshot) bool { return len(a.Actions) > len(s.Actions) })
	if after.Layout == "ring" {
		for _, l := range after.Links {
			if (l.From == m.ID || l.To == m.ID) && l.Up {
				t.Errorf("%s: machine %s dragged out, yet its link %d→%d is up", id, m.Name, l.From, l.To)
				break
			}
		}
	}
}

// waitInFigure polls figure id's state until ok holds, for what.
func waitInFigure(t *testing.T, b *browser, id, what string, ok func(app.Snapshot) bool) app.Snapshot {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := figureApp(t, b, id)
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: waited 10 s for %s", id, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestAFigureLeavesTheSwipeToThePage reads the page of every figure on a phone:
// on each, a vertical swipe that starts on the figure, on nothing the reader
// drags, scrolls the page, and a finger that drags a machine out still cuts it
// off, and moves the page not at all.
func TestAFigureLeavesTheSwipeToThePage(t *testing.T) {
	base, ids := posterPageServer(t, "*")
	b := newPhone(t, 1)
	b.navigate(base + "figures.html")
	for _, id := range ids {
		showFigure(t, b, id)
		checkNamedAndAlone(t, b, id)
		if src := evalJS[string](b, fmt.Sprintf(`document.querySelector("#fig-%s img.raftlab-poster").src`, id)); !strings.HasSuffix(src, "/posters/"+id+"-open-phone.svg") {
			t.Errorf("%s: on a phone the figure's poster is %s, not its phone poster", id, src)
		}
		p := evalJS[pagePoint](b, fmt.Sprintf(onFigure, id))
		if !p.OK {
			t.Fatalf("%s: every point of the figure is one a touch takes", id)
		}
		before := scrollY(b)
		touchPath(t, b, viz.Pt(p.X, p.Y), viz.Pt(p.X, p.Y-220), 8)
		if moved := settledScrollY(b) - before; moved < 80 {
			t.Errorf("%s: a swipe up from (%.0f, %.0f) on the figure moved the page by %.0f px", id, p.X, p.Y, moved)
		}
		showFigure(t, b, id)
		checkDragIsTheFigures(t, b, id, func(from, to viz.Point) { touchPath(t, b, from, to, 12) })
	}
	if len(ids) != len(scenarios.IDs()) {
		t.Fatalf("the page holds %d figures of %d", len(ids), len(scenarios.IDs()))
	}
}

// TestAFigureLeavesTheWheelToThePage reads the page of every figure at a desk:
// on each, the wheel turned over the figure scrolls the page, and the mouse
// that drags a machine out still cuts it off.
func TestAFigureLeavesTheWheelToThePage(t *testing.T) {
	base, ids := posterPageServer(t, "*")
	b := newBrowser(t, 1280, 800)
	b.navigate(base + "figures.html")
	for _, id := range ids {
		showFigure(t, b, id)
		p := evalJS[pagePoint](b, fmt.Sprintf(onFigure, id))
		if !p.OK {
			t.Fatalf("%s: every point of the figure is one a touch takes", id)
		}
		before := scrollY(b)
		ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
		_, err := chromedp.Call(ctx, input.DispatchMouseEvent, input.DispatchMouseEventParams{
			// DevTools wants both deltas, and drops a zero one.
			Type: input.DispatchMouseEventTypeMouseWheel, X: p.X, Y: p.Y, DeltaX: 0.01, DeltaY: 240})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if moved := settledScrollY(b) - before; moved < 80 {
			t.Errorf("%s: the wheel over the figure at (%.0f, %.0f) moved the page by %.0f px", id, p.X, p.Y, moved)
		}
		showFigure(t, b, id)
		checkDragIsTheFigures(t, b, id, func(from, to viz.Point) { b.drag(from.X, from.Y, to.X, to.Y, 12) })
	}
}

// checkNamedAndAlone fails unless figure id's frame is titled with the
// figure's own title, and, once the figure is live, its poster has left the
// accessibility tree.
func checkNamedAndAlone(t *testing.T, b *browser, id string) {
	t.Helper()
	s, err := scenarios.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.poll(fmt.Sprintf(`document.querySelector("#fig-%s iframe").title === %q`, id, s.Title), 5*time.Second); err != nil {
		t.Errorf("%s: the figure's frame is titled %q, not %q", id, evalJS[string](b, fmt.Sprintf(`document.querySelector("#fig-%s iframe").title`, id)), s.Title)
	}
	if err := b.poll(fmt.Sprintf(`document.querySelector("#fig-%s img.raftlab-poster").getAttribute("aria-hidden") === "true"`, id), 10*time.Second); err != nil {
		t.Errorf("%s: live, and its poster is still in the accessibility tree", id)
	}
}

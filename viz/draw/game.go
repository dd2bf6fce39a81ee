package draw

import (
	"fmt"
	"image"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"raftlab/viz"
	"raftlab/viz/frame"
)

// Options connect a Game to its host.
type Options struct {
	// OnEffect carries out what the app asks of the host: copy a link,
	// save a file, open a file. Screenshots are taken here and handed on
	// as EffectSave with PNG data.
	OnEffect func(frame.Effect)
	// OnFirstDraw is called once, after the first frame is drawn.
	OnFirstDraw func()
	// Mark, if set, is told the moments of start-up before the first
	// frame is drawn: "update" as the first Update begins (Ebiten has
	// started), "draw" as the first Draw begins and "built" once that
	// frame is built, before it is painted. A web page puts them on its
	// performance timeline, where the first-frame benchmark reads them.
	Mark func(moment string)
	// ShotFile, if set, saves the third frame drawn as a PNG there and
	// ends the game (for screenshots from scripts).
	ShotFile string
	// OnSecond, if set, is called about once a second of real time with
	// the last frame's timings (for -stats on the desktop).
	OnSecond func(Timing, frame.Stats)
	// Pointers, if set, is where the host queues pointer events as they
	// happen (a web page's listeners). Each Update feeds them to the app in
	// order in place of the pointer state Ebiten samples once a frame,
	// which loses a click whose press and release fall between two frames.
	// The wheel still comes from Ebiten.
	Pointers *viz.PointerQueue
	// Keys, if set, is where the host queues key presses as they happen;
	// each Update feeds them to the app in order in place of the keys
	// Ebiten reads once a frame, which loses a quick press at a few frames
	// a second.
	Keys *viz.KeyQueue
}

// Model is what a Game paints and feeds with the reader's input: the app,
// as a screen sees it. The game knows it by these calls only, so that
// painting depends on the frame contract and not on the app.
type Model interface {
	// Update advances the model to real time now, once a tick.
	Update(now time.Duration)
	// Frame is the frame to paint; Version changes whenever it would look
	// different.
	Frame() *frame.Frame
	Version() uint64
	// Visible is false while the host has the model out of view.
	Visible() bool
	// NextWake says whether the game may stop ticking until input comes,
	// and the real time of the next change that needs no input (0: none).
	NextWake(now time.Duration) (idle bool, wakeAt time.Duration)
	// Resize gives the screen's size in logical pixels.
	Resize(w, h float64)
	Pointer(ev viz.PointerEvent)
	Hover(p viz.Point)
	Wheel(p viz.Point, dx, dy float64)
	Key(name string) bool
	// TakeEffects returns the host requests made since the last call.
	TakeEffects() []frame.Effect
	// CountDraw records whether a frame was painted or skipped; Stats
	// returns the counts.
	CountDraw(drew bool)
	Stats() frame.Stats
}

// Game is the Ebiten game: it feeds input to the model and paints its
// frames.
type Game struct {
	App  Model
	opts Options
	// Mu guards App: Update, Draw and LayoutF hold it, and so must any
	// other goroutine (a page script's calls) that touches the app.
	Mu sync.Mutex

	start   time.Time
	light   *palette
	dark    *palette
	cv      canvas
	scale   float64
	drawn   uint64
	drawnW  int
	drawnH  int
	first   bool
	updated bool         // the first Update has begun
	shot    frame.Effect // a screenshot asked for (Name set), taken at the next Draw
	mouse   viz.Point
	mouseOn bool
	right   bool
	touches map[ebiten.TouchID]viz.Point
	ids     []ebiten.TouchID
	keys    []ebiten.Key
	queued  []viz.QueuedPointer
	pressed []string
	chars   []rune
	timing  Timing
	lastSec time.Duration
	texts   textCache
	frames  int
	done    error
	rest    rest
	// lost: the host said the screen lost what it showed (Invalidate).
	lost atomic.Bool
}

// Timing is how long the last frame took to build and paint, for the
// page's frameStats().
type Timing struct {
	BuildUs  int64 `json:"build_us"`
	PaintUs  int64 `json:"paint_us"`
	UpdateUs int64 `json:"update_us"`
	Calls    int   `json:"draw_calls"`
	// The parts of PaintUs spent on the cluster and on the side panels.
	ClusterUs int64 `json:"paint_cluster_us"`
	PanelsUs  int64 `json:"paint_panels_us"`
}

// New makes a game for a model.
func New(a Model, o Options) *Game {
	return &Game{App: a, opts: o, start: time.Now(), light: lightPalette(), dark: darkPalette(), scale: 1,
		touches: map[ebiten.TouchID]viz.Point{}, rest: rest{wake: make(chan struct{}, 1)},
		cv: canvas{kept: &keptScreen{}}}
}

// Run configures Ebiten for an app that only redraws when something
// changed, and runs the game until the window closes.
func Run(g *Game) error {
	ebiten.SetScreenClearedEveryFrame(false)
	ebiten.SetRunnableOnUnfocused(true)
	g.listen()
	return ebiten.RunGame(g)
}

// mark tells the host a moment of start-up (Options.Mark).
func (g *Game) mark(moment string) {
	if g.opts.Mark != nil {
		g.opts.Mark(moment)
	}
}

// Timing returns the last frame's timings.
func (g *Game) Timing() Timing { return g.timing }

func (g *Game) now() time.Duration { return time.Since(g.start) }

// Now is the time on the clock the game feeds the app, for a host that
// stamps the pointer events it queues.
func (g *Game) Now() time.Duration { return g.now() }

// Update feeds this tick's input to the app and advances it.
func (g *Game) Update() error {
	moved := g.rest.sawInput()
	if q := g.opts.Pointers; q != nil && q.Pending() {
		moved = true
	}
	if q := g.opts.Keys; q != nil && q.Pending() {
		moved = true
	}
	g.parkIfIdle(moved)
	g.Mu.Lock()
	defer g.Mu.Unlock()
	if g.done != nil {
		return g.done
	}
	if !g.updated {
		g.updated = true
		g.mark("update")
	}
	t0 := time.Now()
	now := g.now()
	a := g.App
	g.rest.updated = true
	if q := g.opts.Pointers; q != nil {
		// Events that came while the loop was parked are input too.
		g.queued = q.Take(g.queued[:0])
		moved = moved || len(g.queued) > 0
	}
	if moved {
		g.rest.lastInput = now
	}
	if g.opts.Pointers != nil {
		g.queuedInput()
	} else {
		g.pointerInput(now)
	}
	g.keyInput()
	a.Update(now)
	for _, e := range a.TakeEffects() {
		if e.Kind == frame.EffectScreenshot || e.Kind == frame.EffectAnimate {
			g.shot = e
			continue
		}
		if g.opts.OnEffect != nil {
			g.opts.OnEffect(e)
		}
	}
	g.timing.UpdateUs = time.Since(t0).Microseconds()
	if g.opts.OnSecond != nil && now-g.lastSec >= time.Second {
		g.lastSec = now
		g.opts.OnSecond(g.timing, a.Stats())
	}
	return nil
}

func (g *Game) pos(x, y int) viz.Point {
	return viz.Pt(float64(x)/g.scale, float64(y)/g.scale)
}

// queuedInput feeds the app the pointer events the host queued since the
// last Update, in order, and the wheel as Ebiten saw it.
func (g *Game) queuedInput() {
	a := g.App
	for _, in := range g.queued {
		if in.Hover {
			a.Hover(in.Event.Pos)
			continue
		}
		a.Pointer(in.Event)
	}
	if dx, dy := ebiten.Wheel(); dx != 0 || dy != 0 {
		a.Wheel(g.pos(ebiten.CursorPosition()), dx, dy)
	}
}

// pointerInput feeds the app the pointer state Ebiten samples once a frame.
func (g *Game) pointerInput(now time.Duration) {
	a := g.App
	p := g.pos(ebiten.CursorPosition())
	left := inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft)
	right := inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight)
	switch {
	case left || right:
		g.mouseOn, g.right, g.mouse = true, right, p
		a.Pointer(viz.PointerEvent{Action: viz.PointerDown, Pos: p, Time: now, Secondary: right})
	case g.mouseOn:
		if p != g.mouse {
			g.mouse = p
			a.Pointer(viz.PointerEvent{Action: viz.PointerMove, Pos: p, Time: now})
		}
		btn := ebiten.MouseButtonLeft
		if g.right {
			btn = ebiten.MouseButtonRight
		}
		if inpututil.IsMouseButtonJustReleased(btn) || !ebiten.IsMouseButtonPressed(btn) {
			g.mouseOn = false
			a.Pointer(viz.PointerEvent{Action: viz.PointerUp, Pos: p, Time: now})
		}
	default:
		if p != g.mouse && len(g.touches) == 0 {
			g.mouse = p
			a.Hover(p)
		}
	}
	if dx, dy := ebiten.Wheel(); dx != 0 || dy != 0 {
		a.Wheel(p, dx, dy)
	}
	// Touches: each finger is its own pointer; the app follows the first.
	g.ids = inpututil.AppendJustPressedTouchIDs(g.ids[:0])
	for _, id := range g.ids {
		tp := g.pos(ebiten.TouchPosition(id))
		g.touches[id] = tp
		a.Pointer(viz.PointerEvent{Action: viz.PointerDown, ID: int(id) + 1, Pos: tp, Time: now, Touch: true})
	}
	g.ids = ebiten.AppendTouchIDs(g.ids[:0])
	for _, id := range g.ids {
		tp := g.pos(ebiten.TouchPosition(id))
		if old, ok := g.touches[id]; ok && old != tp {
			g.touches[id] = tp
			a.Pointer(viz.PointerEvent{Action: viz.PointerMove, ID: int(id) + 1, Pos: tp, Time: now, Touch: true})
		}
	}
	for id, last := range g.touches {
		if inpututil.IsTouchJustReleased(id) {
			delete(g.touches, id)
			a.Pointer(viz.PointerEvent{Action: viz.PointerUp, ID: int(id) + 1, Pos: last, Time: now, Touch: true})
		}
	}
}

func (g *Game) keyInput() {
	a := g.App
	if q := g.opts.Keys; q != nil {
		g.pressed = q.Take(g.pressed[:0])
		for _, k := range g.pressed {
			a.Key(k)
		}
		return
	}
	g.chars = ebiten.AppendInputChars(g.chars[:0])
	for _, r := range g.chars {
		a.Key(string(r))
	}
	g.keys = inpututil.AppendJustPressedKeys(g.keys[:0])
	for _, k := range g.keys {
		switch k {
		case ebiten.KeyEscape:
			a.Key("Escape")
		case ebiten.KeySpace:
			// Some platforms report no character for the space bar.
			if !containsRune(g.chars, ' ') {
				a.Key(" ")
			}
		}
	}
}

func containsRune(rs []rune, r rune) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// Draw paints the frame, or nothing when it has not changed: the screen
// keeps the last frame. Then it decides whether the game may rest.
func (g *Game) Draw(screen *ebiten.Image) {
	g.Mu.Lock()
	defer g.Mu.Unlock()
	defer g.settle()
	a := g.App
	b := screen.Bounds()
	// ShotFile counts painted frames, so they are painted even when nothing
	// changes (a paused run, as a share link opens), or -shot never ends.
	shooting := g.opts.ShotFile != "" && g.frames < 3
	same := a.Version() == g.drawn && b.Dx() == g.drawnW && b.Dy() == g.drawnH && !g.lost.Load()
	if !a.Visible() || (g.first && !shooting && same && g.shot.Name == "") {
		a.CountDraw(false)
		return
	}
	if g.shot.Kind == frame.EffectAnimate {
		// Before this frame is built: the model moves its run to each of
		// the animation's moments and back.
		shot := g.shot
		g.shot = frame.Effect{}
		if m, ok := a.(Animator); ok && g.opts.OnEffect != nil {
			if data, err := g.paintAnimation(m, shot.Region); err == nil {
				g.opts.OnEffect(frame.Effect{Kind: frame.EffectSave, Name: shot.Name, Data: data})
			}
		}
	}
	if !g.first {
		g.mark("draw")
	}
	t0 := time.Now()
	f := a.Frame()
	t1 := time.Now()
	if !g.first {
		g.mark("built")
	}
	pal := g.light
	if f.Theme == frame.ThemeDark {
		pal = g.dark
	}
	sc := g.scale
	if f.Zoom > 0 {
		sc *= f.Zoom // presenter mode: the frame painted larger
	}
	g.cv.dst, g.cv.sc, g.cv.tc = screen, sc, &g.texts
	if g.lost.Swap(false) || ebiten.IsScreenClearedEveryFrame() {
		// Run leaves the screen as it was; a host that runs the game
		// otherwise may not.
		g.cv.kept.invalidate()
	}
	g.cv.paintFrame(f, pal)
	g.texts.endFrame()
	g.timing.BuildUs, g.timing.PaintUs = t1.Sub(t0).Microseconds(), time.Since(t1).Microseconds()
	g.timing.Calls = g.cv.calls
	g.timing.ClusterUs, g.timing.PanelsUs = g.cv.clusterUs, g.cv.panelsUs
	g.drawn, g.drawnW, g.drawnH = a.Version(), b.Dx(), b.Dy()
	a.CountDraw(true)
	g.frames++
	if g.opts.ShotFile != "" && g.frames == 3 {
		g.done = g.saveShot(screen)
	}
	if g.shot.Name != "" {
		shot := g.shot
		g.shot = frame.Effect{}
		data, err := encodePNG(screen)
		if shot.Scale > 0 {
			data, err = g.paintPicture(f, pal, shot.Scale, shot.Region)
		}
		if err == nil && g.opts.OnEffect != nil {
			g.opts.OnEffect(frame.Effect{Kind: frame.EffectSave, Name: shot.Name, Data: data})
		}
	}
	if !g.first {
		g.first = true
		if g.opts.OnFirstDraw != nil {
			g.opts.OnFirstDraw()
		}
	}
}

// Invalidate makes the next frame paint the whole screen, though nothing
// changed: for a host that learns the screen lost what it showed. It does
// not need Mu.
//
// Ebiten (v2.8) tells the game nothing of a lost graphics context. In the
// browser its canvas's webglcontextlost handler reloads the page
// (internal/ui/ui_js.go), so the game starts again with nothing kept; on
// Android it restores every image, the screen included, from what was
// drawn on it (internal/restorable); on the desktop the context is not
// lost. Within the game, the kept screen is painted whole whenever Draw is
// handed another screen image or one of another size (Ebiten makes a new
// one on a resize, and when clearing every frame is turned on or off: see
// keptScreen.usable), and after Invalidate. A page that keeps running
// through a lost context calls it on the canvas's webglcontextrestored.
func (g *Game) Invalidate() {
	g.lost.Store(true)
	g.Wake()
}

func (g *Game) saveShot(screen *ebiten.Image) error {
	data, err := encodePNG(screen)
	if err == nil {
		err = os.WriteFile(g.opts.ShotFile, data, 0o644)
	}
	if err != nil {
		return err
	}
	return ebiten.Termination
}

// paintPicture paints frame f again, at scale times its size on an image
// of its own, and returns region of it (all of it when empty) as PNG: a
// picture for a slide, sharper than the screen, of the part asked for.
// The canvas keeps nothing between pictures: it paints the frame whole.
func (g *Game) paintPicture(f *frame.Frame, pal *palette, scale float64, region viz.Rect) ([]byte, error) {
	w, h := int(math.Ceil(f.W*scale)), int(math.Ceil(f.H*scale))
	if w <= 0 || h <= 0 || w > maxPictureSide || h > maxPictureSide {
		return nil, fmt.Errorf("a picture of %dx%d pixels is out of range", w, h)
	}
	img := ebiten.NewImage(w, h)
	defer img.Deallocate()
	cv := canvas{dst: img, sc: scale, tc: &g.texts}
	cv.paintFrame(f, pal)
	if region.Empty() {
		return encodePNG(img)
	}
	r := image.Rect(int(math.Floor(region.X*scale)), int(math.Floor(region.Y*scale)),
		int(math.Ceil(region.Right()*scale)), int(math.Ceil(region.Bottom()*scale))).Intersect(img.Bounds())
	if r.Empty() {
		return nil, fmt.Errorf("the region %v is outside the frame", region)
	}
	return encodePNG(img.SubImage(r).(*ebiten.Image))
}

// maxPictureSide bounds a picture's width and height in pixels (a 4K
// screen's frame at twice its size).
const maxPictureSide = 8192

// encodePNG returns the screen as PNG. The pixels are read back from the
// GPU here; the encoding is pngOf's, which differs by platform.
func encodePNG(screen *ebiten.Image) ([]byte, error) {
	b := screen.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	screen.ReadPixels(img.Pix)
	return pngOf(img)
}

// Layout is not used: LayoutF is.
func (g *Game) Layout(w, h int) (int, int) { return w, h }

// LayoutF sizes the screen in device pixels, so text stays sharp on
// high-density displays, and tells the app the size in logical pixels.
func (g *Game) LayoutF(w, h float64) (float64, float64) {
	s := ebiten.Monitor().DeviceScaleFactor()
	if s <= 0 {
		s = 1
	}
	g.Mu.Lock()
	defer g.Mu.Unlock()
	g.scale = s
	g.App.Resize(w, h)
	return w * s, h * s
}

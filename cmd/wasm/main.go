//go:build js && wasm

// Command wasm is raftlab in the browser, run by web/index.html.
//
// It reads the page's URL parameters (the same as the desktop app's
// flags), reports bad ones in the page's message area, and installs
// window.raftlab, the page's handle on the app:
//
//	ready                  true once the first frame is drawn
//	snapshot()             the app's state as a JSON string
//	act(json)              apply one action; null, or an error string
//	cmd(name, ...args)     a UI command (see app.App.Cmd); null, or an error string
//	click(id)              press a control by id; null, or an error string
//	setVisible(bool)       pause everything while out of view
//	frameStats()           frame counters and timings as a JSON string,
//	                       whether the app rests (draws nothing until woken)
//	                       and the Go runtime's memory
//	link()                 the share link of the run so far
//	exportSchedule()       the run as schedule JSON
//	exportTrace()          the trace as JSON
//	importSchedule(json)   open a schedule; null, or an error string
//	controls(), press(id), nudge(id, dir), description()
//	                       the keyboard's way in (see access.go)
//	grabs(x, y)            whether a touch there is the app's (a machine, a
//	                       link, a slider...) rather than a swipe that
//	                       scrolls the page (see leaveScrollToThePage)
//
// Pointer events reach the app through a queue that the page's listeners
// fill as they happen (see listenPointers), not through Ebiten's
// once-a-frame sampling.
//
// docs/web.md describes the contract with the page.
package main

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"raftlab/viz"
	"raftlab/viz/app"
	"raftlab/viz/app/session"
	"raftlab/viz/draw"
	"raftlab/viz/frame"
)

func main() {
	// The Go runtime and every package's initialisation have run by now.
	mark("raftlab-main", nil)
	win := js.Global()
	loc := win.Get("location")
	query := loc.Get("search").String()
	base := loc.Get("origin").String() + loc.Get("pathname").String()

	cat := session.BuiltinScenarios()
	params, problems := viz.ParseQuery(query, cat.Check)
	msgs, missing := app.SortProblems(problems)
	a, err := app.New(app.Options{
		Params: params, SpeedGiven: app.SpeedChosen(strings.Split(strings.TrimPrefix(query, "?"), "&")), MissingFigure: missing,
		Width: win.Get("innerWidth").Float(), Height: win.Get("innerHeight").Float(),
		Measure: draw.Measure, Scenarios: cat, BaseURL: base, Describe: true,
	})
	if err != nil {
		pageMessage("The simulator could not start: "+err.Error(), "error")
		return
	}
	if mm := win.Get("matchMedia"); mm.Type() == js.TypeFunction && win.Call("matchMedia", "(pointer: coarse)").Get("matches").Truthy() {
		// A finger is the main pointer: targets and hints are for touch
		// from the first frame, before the first touch says so.
		a.SetTouch(true)
	}
	if v := win.Get("raftlabVisible"); v.Type() == js.TypeBoolean && !v.Bool() {
		a.SetVisible(false)
	}
	if title := a.Title(); title != "" {
		// The page, and a screen reader's name for the canvas, say which
		// figure this is.
		win.Get("document").Set("title", title+" — raftlab")
	}
	b := &bridge{win: win, params: params, app: a}
	pointers := &viz.PointerQueue{}
	keys := &viz.KeyQueue{}
	g := draw.New(a, draw.Options{OnEffect: b.effect, OnFirstDraw: b.ready, Pointers: pointers, Keys: keys,
		Mark: func(moment string) { mark("raftlab-"+moment, nil) }})
	b.g = g
	b.install()
	b.listenPointers(pointers)
	b.listenKeys(keys)
	if params.Embed {
		b.leaveScrollToThePage()
	}
	if len(msgs) > 0 {
		pageMessage(strings.Join(msgs, "\n"), "info")
		b.noteShown = true
	}
	mark("raftlab-setup", nil)
	if err := draw.Run(g); err != nil {
		pageMessage("The simulator stopped: "+err.Error(), "error")
	}
}

// figureGOGC is the collector's GOGC in an embedded figure, where a page may
// hold several at once. The WebAssembly memory grows to the largest heap the
// program ever had and never gives it back, and with Go's default of 100 the
// heap of a figure that played its story reached about twice what it keeps
// live. At 50 a collection comes sooner: a figure played through held 2 to
// 5 MB less WebAssembly memory (BENCHMARKS.md, "Lighter on the reader's
// device"). A resting figure allocates nothing, so the collector's extra
// work falls only on the steps it plays.
//
// It is set after the first frame (bridge.ready), not before: Ebiten's
// start-up (its shaders built with text/template and compiled by its own
// compiler) and the first frame's text (shaping, rasterising glyphs) make
// garbage of a heap that is a few MB live then, and at 50 the figure
// collected six times before its first frame where the full app, at 100,
// collects four, each in code the browser has not optimised yet. The
// heap is small then, so the memory this keeps is little.
const figureGOGC = 50

// mark notes a moment of start-up on the page's performance timeline
// (performance.mark), where web/index.html notes the download and the
// compilation: the start-up benchmark (e2e) reads them to tell where the
// time to the first frame goes.
func mark(name string, detail map[string]any) {
	perf := js.Global().Get("performance")
	if perf.Type() != js.TypeObject || perf.Get("mark").Type() != js.TypeFunction {
		return
	}
	if detail == nil {
		perf.Call("mark", name)
		return
	}
	opts := js.Global().Get("Object").New()
	opts.Set("detail", detail)
	perf.Call("mark", name, opts)
}

// pageMessage shows text in the page's message area (index.html).
func pageMessage(text, kind string) {
	page := js.Global().Get("raftlabPage")
	if page.Type() == js.TypeObject {
		page.Call("showMessage", text, kind)
		return
	}
	js.Global().Get("console").Call("log", "raftlab: "+text)
}

// clearPageMessage hides the page's message area.
func clearPageMessage() {
	if page := js.Global().Get("raftlabPage"); page.Type() == js.TypeObject {
		page.Call("clearMessage")
	}
}

type bridge struct {
	win js.Value
	obj js.Value
	g   *draw.Game
	app *app.App // the model g paints, under g.Mu
	// noteShown: the page shows a note about bad parameters, to be
	// cleared a while after the app appears (the defaults are in use).
	noteShown bool
	params    viz.Params
	// hostOrigin is the origin of the host page that asked to hear the
	// figure's events ("" until one does).
	hostOrigin string
}

// locked runs f with the game's lock held: page calls arrive between
// frames, but the app must never see two callers at once.
func (b *bridge) locked(f func(a *app.App) any) any {
	b.g.Mu.Lock()
	defer b.g.Mu.Unlock()
	return f(b.app)
}

// changing is locked for calls that may change the app: it wakes the game
// afterwards, which may be resting and would otherwise go on showing the
// old picture until the next input.
func (b *bridge) changing(f func(a *app.App) any) any {
	defer b.g.Wake()
	return b.locked(f)
}

func errValue(err error) any {
	if err == nil {
		return nil
	}
	return err.Error()
}

// jsArg turns a JavaScript argument into the text a command reads.
func jsArg(v js.Value) string {
	switch v.Type() {
	case js.TypeString:
		return v.String()
	case js.TypeNumber:
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	case js.TypeBoolean:
		return strconv.FormatBool(v.Bool())
	case js.TypeUndefined, js.TypeNull:
		return ""
	}
	return js.Global().Get("JSON").Call("stringify", v).String()
}

func (b *bridge) fn(f func(args []js.Value) any) js.Func {
	return js.FuncOf(func(this js.Value, args []js.Value) any { return f(args) })
}

func (b *bridge) install() {
	o := js.Global().Get("Object").New()
	o.Set("ready", false)
	b.installReads(o)
	b.installActs(o)
	b.obj = o
	b.win.Set("raftlab", o)
	b.installDrop()
	b.installAccess()
}

// installReads puts on o the calls that read the app: its snapshot, its
// frame counters, its link and exports, and what a touch would take.
func (b *bridge) installReads(o js.Value) {
	o.Set("snapshot", b.fn(func([]js.Value) any {
		return b.locked(func(a *app.App) any {
			data, err := a.SnapshotJSON()
			if err != nil {
				return `{"error":` + strconv.Quote(err.Error()) + `}`
			}
			return string(data)
		})
	}))
	o.Set("frameStats", b.fn(func([]js.Value) any {
		return b.locked(func(a *app.App) any {
			// The Go heap, so that a page can tell live data from the
			// WebAssembly memory the runtime has grown and cannot give back.
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			data, _ := json.Marshal(struct {
				frame.Stats
				draw.Timing
				// Resting: the app is idle and Ebiten has stopped running
				// frames until input or a page call wakes it.
				Resting bool `json:"resting"`
				// HeapLive is the heap in use by objects (live and not yet
				// collected), HeapSys what the heap holds from the system.
				HeapLive uint64 `json:"heapLive"`
				HeapSys  uint64 `json:"heapSys"`
				// NextGC is the heap size that starts the next collection
				// (GOGC's share above what the last one found live); Sys all
				// the Go runtime holds from the WebAssembly memory (heap,
				// stacks, its own tables); GCs the collections so far.
				NextGC uint64 `json:"nextGC"`
				Sys    uint64 `json:"sys"`
				GCs    uint32 `json:"gcs"`
			}{a.Stats(), b.g.Timing(), b.g.Resting(), ms.HeapAlloc, ms.HeapSys, ms.NextGC, ms.Sys, ms.NumGC})
			return string(data)
		})
	}))
	o.Set("link", b.fn(func([]js.Value) any {
		return b.locked(func(a *app.App) any { return a.ShareLink() })
	}))
	o.Set("grabs", b.fn(func(args []js.Value) any {
		if len(args) < 2 {
			return false
		}
		p := viz.Pt(args[0].Float(), args[1].Float())
		return b.locked(func(a *app.App) any { return a.Grabs(p) })
	}))
	o.Set("exportSchedule", b.fn(func([]js.Value) any {
		return b.locked(func(a *app.App) any { data, _ := a.ExportSchedule(); return string(data) })
	}))
	o.Set("exportTrace", b.fn(func([]js.Value) any {
		return b.locked(func(a *app.App) any { data, _ := a.ExportTrace(); return string(data) })
	}))
}

// installActs puts on o the calls that change the app: an action, a
// command, a click, being shown or hidden, a schedule opened.
func (b *bridge) installActs(o js.Value) {
	o.Set("act", b.fn(func(args []js.Value) any {
		if len(args) == 0 {
			return "act: give the action as JSON, e.g. {\"do\":\"crash\",\"node\":1}"
		}
		text := jsArg(args[0])
		return b.changing(func(a *app.App) any { return errValue(a.Act([]byte(text))) })
	}))
	o.Set("cmd", b.fn(func(args []js.Value) any {
		if len(args) == 0 {
			return "cmd: give a command name"
		}
		name := jsArg(args[0])
		rest := make([]string, len(args)-1)
		for i, v := range args[1:] {
			rest[i] = jsArg(v)
		}
		return b.changing(func(a *app.App) any {
			_, err := a.Cmd(name, rest...)
			return errValue(err)
		})
	}))
	o.Set("click", b.fn(func(args []js.Value) any {
		if len(args) == 0 {
			return "click: give a control id"
		}
		id := jsArg(args[0])
		return b.changing(func(a *app.App) any { return errValue(a.Click(id)) })
	}))
	o.Set("setVisible", b.fn(func(args []js.Value) any {
		v := len(args) == 0 || args[0].Truthy()
		return b.changing(func(a *app.App) any { a.SetVisible(v); return nil })
	}))
	o.Set("importSchedule", b.fn(func(args []js.Value) any {
		if len(args) == 0 {
			return "importSchedule: give the schedule JSON"
		}
		text := jsArg(args[0])
		return b.changing(func(a *app.App) any { return errValue(a.ImportSchedule([]byte(text))) })
	}))

}

// ready marks the app ready after its first frame.
func (b *bridge) ready() {
	// What the first frame cost, for telling start-up (Ebiten's, the
	// first Update) from the frame itself: a frame's build and paint.
	t := b.g.Timing()
	mark("raftlab-first-draw", map[string]any{"update_us": t.UpdateUs, "build_us": t.BuildUs, "paint_us": t.PaintUs})
	if b.params.Embed {
		debug.SetGCPercent(figureGOGC)
	}
	b.watchContext()
	b.obj.Set("ready", true)
	b.win.Call("dispatchEvent", b.win.Get("Event").New("raftlab-ready"))
	if b.noteShown {
		time.AfterFunc(20*time.Second, clearPageMessage)
	}
}

// effect carries out what the app asks of the page.
func (b *bridge) effect(e frame.Effect) {
	switch e.Kind {
	case frame.EffectCopy:
		b.showLink(e.Text)
	case frame.EffectSave:
		b.download(e.Name, e.Data)
	case frame.EffectOpen:
		b.openFile()
	case frame.EffectVisit:
		b.visit(e.Text)
	case frame.EffectDescribe, frame.EffectAnnounce, frame.EffectStep:
		b.words(e)
	}
}

// visit opens url in a new tab; where the browser blocks that, the link
// is shown to be copied or followed.
func (b *bridge) visit(url string) {
	b.obj.Set("lastVisit", url)
	w := b.win.Call("open", url, "_blank")
	if w.IsNull() || w.IsUndefined() {
		b.showLink(url)
		return
	}
	// The lab needs nothing from the figure's page.
	w.Set("opener", js.Null())
}

// showLink puts the link on the clipboard when the browser allows it,
// and always shows it in a small box where it can be selected and copied.
func (b *bridge) showLink(link string) {
	nav := b.win.Get("navigator")
	if cb := nav.Get("clipboard"); cb.Type() == js.TypeObject {
		p := cb.Call("writeText", link)
		// A refused clipboard is not an error: the box below still works.
		p.Call("catch", js.FuncOf(func(js.Value, []js.Value) any { return nil }))
	}
	b.obj.Set("lastLink", link)
	doc := b.win.Get("document")
	box := doc.Call("getElementById", "raftlab-link")
	if box.IsNull() {
		box = doc.Call("createElement", "div")
		box.Set("id", "raftlab-link")
		box.Get("style").Set("cssText", "position:fixed;left:50%;top:64px;transform:translateX(-50%);z-index:30;"+
			"display:flex;gap:8px;align-items:center;padding:10px 12px;border-radius:8px;"+
			"background:rgba(24,30,42,0.95);color:#fff;font:14px system-ui,sans-serif;box-shadow:0 2px 12px rgba(0,0,0,.3);"+
			"max-width:calc(100vw - 24px)")
		label := doc.Call("createElement", "span")
		label.Set("textContent", "Link:")
		input := doc.Call("createElement", "input")
		input.Set("id", "raftlab-link-text")
		input.Set("readOnly", true)
		input.Get("style").Set("cssText", "width:min(420px,60vw);font:13px monospace;padding:4px")
		closeBtn := doc.Call("createElement", "button")
		closeBtn.Set("textContent", "Close")
		closeBtn.Call("addEventListener", "click", js.FuncOf(func(js.Value, []js.Value) any {
			box.Get("style").Set("display", "none")
			return nil
		}))
		box.Call("append", label, input, closeBtn)
		doc.Get("body").Call("append", box)
	}
	box.Get("style").Set("display", "flex")
	input := doc.Call("getElementById", "raftlab-link-text")
	input.Set("value", link)
	input.Call("focus")
	input.Call("select")
}

// download offers data as a file.
func (b *bridge) download(name string, data []byte) {
	arr := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(arr, data)
	kind := "application/json"
	if strings.HasSuffix(name, ".png") {
		kind = "image/png"
	}
	opts := js.Global().Get("Object").New()
	opts.Set("type", kind)
	blob := js.Global().Get("Blob").New([]any{arr}, opts)
	url := js.Global().Get("URL").Call("createObjectURL", blob)
	doc := b.win.Get("document")
	link := doc.Call("createElement", "a")
	link.Set("href", url)
	link.Set("download", name)
	doc.Get("body").Call("append", link)
	link.Call("click")
	link.Call("remove")
	js.Global().Get("URL").Call("revokeObjectURL", url)
}

// openFile asks for a schedule file and imports it.
func (b *bridge) openFile() {
	doc := b.win.Get("document")
	input := doc.Call("createElement", "input")
	input.Set("type", "file")
	input.Set("accept", ".json,application/json")
	input.Call("addEventListener", "change", js.FuncOf(func(js.Value, []js.Value) any {
		files := input.Get("files")
		if files.Get("length").Int() > 0 {
			b.importFile(files.Index(0))
		}
		return nil
	}))
	input.Call("click")
}

// importFile reads a File and imports it as a schedule.
func (b *bridge) importFile(file js.Value) {
	var then js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		text := args[0].String()
		b.changing(func(a *app.App) any {
			if err := a.ImportSchedule([]byte(text)); err != nil {
				a.Notify(file.Get("name").String() + ": " + err.Error())
			}
			return nil
		})
		then.Release()
		return nil
	})
	file.Call("text").Call("then", then)
}

// installDrop lets a schedule file be dropped on the page.
func (b *bridge) installDrop() {
	doc := b.win.Get("document")
	doc.Call("addEventListener", "dragover", js.FuncOf(func(_ js.Value, args []js.Value) any {
		args[0].Call("preventDefault")
		return nil
	}))
	doc.Call("addEventListener", "drop", js.FuncOf(func(_ js.Value, args []js.Value) any {
		ev := args[0]
		ev.Call("preventDefault")
		files := ev.Get("dataTransfer").Get("files")
		if files.Get("length").Int() > 0 {
			b.importFile(files.Index(0))
		}
		return nil
	}))
}

// listenPointers queues the page's pointer events for the game as they
// happen, each with where (CSS pixels on the canvas) and when, so that
// every press and release reaches the app in order however slow the frames
// are: Ebiten samples the pointer once a frame, and at a few frames a
// second a quick click falls between two samples. The listeners capture
// on the window, so that a release off the canvas is seen too.
func (b *bridge) listenPointers(q *viz.PointerQueue) {
	perf := b.win.Get("performance")
	var canvas js.Value // Ebiten's, once an event has come to it
	h := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ev := args[0]
		target := ev.Get("target")
		on := target.Truthy() && target.Get("tagName").Equal(js.ValueOf("CANVAS"))
		if on && !target.Equal(canvas) {
			canvas = target
			// The full lab takes every gesture; a figure in a page lets
			// the browser pan vertically (see leaveScrollToThePage).
			action := "none"
			if b.params.Embed {
				action = "pan-y pinch-zoom"
			}
			canvas.Get("style").Set("touchAction", action)
		}
		pos := viz.Pt(ev.Get("clientX").Float(), ev.Get("clientY").Float())
		if canvas.Truthy() {
			r := canvas.Call("getBoundingClientRect")
			pos = pos.Sub(viz.Pt(r.Get("left").Float(), r.Get("top").Float()))
		}
		// The event happened lag ms ago, as a slow frame delays its handling.
		lag := max(perf.Call("now").Float()-ev.Get("timeStamp").Float(), 0)
		e := viz.PagePointer{
			Type: ev.Get("type").String(), ID: ev.Get("pointerId").Int(), Kind: ev.Get("pointerType").String(),
			Button: ev.Get("button").Int(), Pos: pos, Time: b.g.Now() - time.Duration(lag*float64(time.Millisecond)),
			OnCanvas: on,
		}
		if q.Push(e) {
			b.g.Wake()
		}
		return nil
	})
	opts := js.Global().Get("Object").New()
	opts.Set("capture", true)
	opts.Set("passive", true)
	for _, name := range []string{"pointerdown", "pointermove", "pointerup", "pointercancel"} {
		b.win.Call("addEventListener", name, h, opts)
	}
}

// leaveScrollToThePage lets a figure in a page scroll the page. The
// canvas lets the browser pan vertically (touch-action: pan-y, set in
// listenPointers and here), and Ebiten
// cancels the browser's default for every touch and wheel event that
// reaches the canvas; so a touch that starts on nothing the reader drags
// (app.Grabs), and a wheel the app does not take (app.TakesWheel), is
// stopped on its way to the canvas, and the browser scrolls the page. The
// app still sees every touch as pointer events, which come apart: a tap is
// a tap wherever it starts, and a vertical swipe that the page takes ends
// in a pointercancel.
func (b *bridge) leaveScrollToThePage() {
	doc := b.win.Get("document")
	if c := doc.Call("querySelector", "canvas"); c.Truthy() {
		c.Get("style").Set("touchAction", "pan-y pinch-zoom")
	}
	canvasAt := func(ev js.Value) (js.Value, bool) {
		t := ev.Get("target")
		return t, t.Truthy() && t.Get("tagName").Equal(js.ValueOf("CANVAS"))
	}
	point := func(canvas, x, y js.Value) viz.Point {
		r := canvas.Call("getBoundingClientRect")
		return viz.Pt(x.Float()-r.Get("left").Float(), y.Float()-r.Get("top").Float())
	}
	pages := map[int]bool{} // touches the page took, by identifier
	touches := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ev := args[0]
		canvas, on := canvasAt(ev)
		if !on {
			return nil
		}
		changed := ev.Get("changedTouches")
		page := false
		for i := 0; i < changed.Get("length").Int(); i++ {
			t := changed.Index(i)
			id := t.Get("identifier").Int()
			if ev.Get("type").String() == "touchstart" {
				p := point(canvas, t.Get("clientX"), t.Get("clientY"))
				pages[id] = !b.locked(func(a *app.App) any { return a.Grabs(p) }).(bool)
			}
			page = page || pages[id]
			if typ := ev.Get("type").String(); typ == "touchend" || typ == "touchcancel" {
				delete(pages, id)
			}
		}
		if page {
			ev.Call("stopImmediatePropagation")
		}
		return nil
	})
	wheel := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ev := args[0]
		canvas, on := canvasAt(ev)
		if !on {
			return nil
		}
		p := point(canvas, ev.Get("clientX"), ev.Get("clientY"))
		focused := doc.Get("activeElement").Equal(canvas)
		if !b.locked(func(a *app.App) any { return a.TakesWheel(p, focused) }).(bool) {
			ev.Call("stopImmediatePropagation")
		}
		return nil
	})
	opts := js.Global().Get("Object").New()
	opts.Set("capture", true)
	opts.Set("passive", true)
	for _, name := range []string{"touchstart", "touchmove", "touchend", "touchcancel"} {
		b.win.Call("addEventListener", name, touches, opts)
	}
	b.win.Call("addEventListener", "wheel", wheel, opts)
}

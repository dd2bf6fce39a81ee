//go:build js && wasm

package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"syscall/js"

	"raftlab/viz"
	"raftlab/viz/app"
	"raftlab/viz/frame"
)

// The figure in words and without a mouse: the description and the live
// region the page holds (index.html), the controls the page's keyboard
// layer lays over the canvas, the keys queued as they are pressed, and the
// messages with which a host page drives the figure (docs/embedding.md).

// installAccess adds to window.raftlab what the page's keyboard layer
// calls:
//
//	controls()        what the keyboard reaches now, as JSON (app.Control)
//	press(id)         press one; null, or an error string
//	nudge(id, dir)    move a slider one notch; null, or an error string
//	description()     the figure's description now
func (b *bridge) installAccess() {
	o := b.obj
	o.Set("controls", b.fn(func([]js.Value) any {
		return b.locked(func(a *app.App) any {
			data, _ := json.Marshal(a.Controls())
			return string(data)
		})
	}))
	o.Set("press", b.fn(func(args []js.Value) any {
		if len(args) == 0 {
			return "press: give a control id"
		}
		id := jsArg(args[0])
		return b.changing(func(a *app.App) any { return errValue(a.Press(id)) })
	}))
	o.Set("nudge", b.fn(func(args []js.Value) any {
		if len(args) < 2 {
			return "nudge: give a slider id and a direction, 1 or -1"
		}
		id, dir := jsArg(args[0]), args[1].Int()
		return b.changing(func(a *app.App) any { return errValue(a.Nudge(id, dir)) })
	}))
	o.Set("description", b.fn(func([]js.Value) any {
		return b.locked(func(a *app.App) any { return a.Describe() })
	}))
	b.listenHost()
}

// words carries out the effects that say the figure in words: the page's
// description and live region, and the same events for a listening host.
func (b *bridge) words(e frame.Effect) {
	doc := b.win.Get("document")
	switch e.Kind {
	case frame.EffectDescribe:
		if el := doc.Call("getElementById", "raftlab-description"); el.Truthy() {
			el.Set("textContent", e.Text)
		}
		b.tellHost(map[string]any{"raftlab": "event", "kind": "describe", "text": e.Text})
	case frame.EffectAnnounce:
		if live := doc.Call("getElementById", "raftlab-live"); live.Truthy() {
			// A polite region reads what is added; the last few lines
			// stay, so that the region does not grow without end.
			p := doc.Call("createElement", "p")
			p.Set("textContent", e.Text)
			live.Call("append", p)
			for live.Get("childElementCount").Int() > 4 {
				live.Get("firstElementChild").Call("remove")
			}
		}
		b.tellHost(map[string]any{"raftlab": "event", "kind": "announce", "text": e.Text})
	case frame.EffectStep:
		msg := map[string]any{"raftlab": "event", "kind": "step"}
		stepFields(msg, e.Name, e.Text)
		b.tellHost(msg)
	}
}

// stepFields adds a step ("N/M" and its words) to a message as numbers.
func stepFields(msg map[string]any, name, text string) {
	if name == "" {
		return
	}
	n, m, _ := strings.Cut(name, "/")
	step, _ := strconv.Atoi(n)
	steps, _ := strconv.Atoi(m)
	msg["step"], msg["steps"], msg["text"] = step, steps, text
}

// listenKeys queues the key presses on the canvas as they happen (see
// viz.KeyQueue). Tab is let through to the browser: Ebiten's own listener
// cancels every key on its canvas, which would trap the keyboard's focus
// there.
func (b *bridge) listenKeys(q *viz.KeyQueue) {
	h := js.FuncOf(func(_ js.Value, args []js.Value) any {
		ev := args[0]
		target := ev.Get("target")
		tag := ""
		if target.Truthy() && target.Get("tagName").Type() == js.TypeString {
			tag = target.Get("tagName").String()
		}
		onCanvas := tag == "CANVAS" || tag == "BODY" || tag == "HTML"
		key := ev.Get("key").String()
		if key == "Tab" && tag == "CANVAS" {
			ev.Call("stopPropagation")
			return nil
		}
		if ev.Get("repeat").Bool() {
			return nil
		}
		if q.Push(viz.PageKey{Key: key, Ctrl: ev.Get("ctrlKey").Bool(), Alt: ev.Get("altKey").Bool(),
			Meta: ev.Get("metaKey").Bool(), OnCanvas: onCanvas}) {
			b.g.Wake()
		}
		return nil
	})
	opts := js.Global().Get("Object").New()
	opts.Set("capture", true)
	b.win.Call("addEventListener", "keydown", h, opts)
}

// listenHost answers the messages of the page that embeds the figure. Only
// the parent window may send them, and only from the app's own origin or
// one the author listed (the origins parameter). Messages without a
// raftlab field are someone else's and ignored; pause and resume are the
// page's (index.html).
func (b *bridge) listenHost() {
	own := b.win.Get("location").Get("origin").String()
	b.win.Call("addEventListener", "message", js.FuncOf(func(_ js.Value, args []js.Value) any {
		ev := args[0]
		parent := b.win.Get("parent")
		if parent.Equal(b.win) || !ev.Get("source").Equal(parent) {
			return nil
		}
		data := ev.Get("data")
		if data.Type() != js.TypeObject || data.IsNull() {
			return nil
		}
		kind := data.Get("raftlab")
		if kind.IsUndefined() || kind.String() == "pause" || kind.String() == "resume" {
			return nil
		}
		origin := ev.Get("origin").String()
		text := js.Global().Get("JSON").Call("stringify", data).String()
		if !b.params.OriginAllowed(origin, own) {
			js.Global().Get("console").Call("warn", "raftlab: a message from "+origin+" was refused: the figure takes messages only from its own origin and those in its origins parameter")
			if origin != "null" {
				parent.Call("postMessage", map[string]any{"raftlab": "error", "error": "origin " + origin + " may not drive this figure; list it in the figure's data-origins"}, origin)
			}
			return nil
		}
		reply := b.answer(origin, text)
		parent.Call("postMessage", reply, origin)
		return nil
	}))
}

// answer does what a host's message asks and says what came of it.
func (b *bridge) answer(origin, text string) map[string]any {
	m, err := app.ParseMessage([]byte(text))
	reply := map[string]any{}
	if len(m.ID) > 0 {
		reply["id"] = js.Global().Get("JSON").Call("parse", string(m.ID))
	}
	if err != nil {
		reply["raftlab"], reply["error"] = "error", err.Error()
		return reply
	}
	switch m.Kind {
	case "listen":
		b.hostOrigin = origin
		reply["raftlab"] = "listening"
		b.locked(func(a *app.App) any {
			name, text := a.StepTold()
			stepFields(reply, name, text)
			reply["description"] = a.Describe()
			return nil
		})
	case "describe":
		reply["raftlab"] = "describe"
		reply["text"] = b.locked(func(a *app.App) any { return a.Describe() })
	case "link":
		reply["raftlab"] = "link"
		reply["link"] = b.locked(func(a *app.App) any { return a.ShareLink() })
	case "do":
		res := b.changing(func(a *app.App) any {
			in, err := a.Directive(m.Act)
			if err == nil {
				err = a.Do(in)
			}
			return errValue(err)
		})
		reply["act"] = m.Act
		if res != nil {
			reply["raftlab"], reply["error"] = "error", res
		} else {
			reply["raftlab"] = "done"
		}
	}
	return reply
}

// tellHost sends an event to the host page that asked to listen.
func (b *bridge) tellHost(msg map[string]any) {
	if b.hostOrigin == "" {
		return
	}
	b.win.Get("parent").Call("postMessage", msg, b.hostOrigin)
}

// watchContext tells the host when the browser takes the canvas's WebGL
// context away (too many figures live at once), and counts it for tests.
func (b *bridge) watchContext() {
	canvas := b.win.Get("document").Call("querySelector", "canvas")
	if !canvas.Truthy() {
		return
	}
	b.obj.Set("contextLost", 0)
	canvas.Call("addEventListener", "webglcontextlost", js.FuncOf(func(js.Value, []js.Value) any {
		b.obj.Set("contextLost", b.obj.Get("contextLost").Int()+1)
		b.tellHost(map[string]any{"raftlab": "event", "kind": "contextlost"})
		return nil
	}))
	// Ebiten reloads the page when the context is lost; should it ever
	// restore it in place instead, the kept screen is gone with it.
	canvas.Call("addEventListener", "webglcontextrestored", js.FuncOf(func(js.Value, []js.Value) any {
		b.g.Invalidate()
		return nil
	}))
}

package viz

import (
	"sync"
	"time"
)

// PagePointer is one pointer event as a web page's listeners see it (a DOM
// PointerEvent).
type PagePointer struct {
	// Type is the event's type: "pointerdown", "pointermove", "pointerup"
	// or "pointercancel".
	Type string
	// ID is the page's pointerId; Kind its pointerType: "mouse", "touch"
	// or "pen".
	ID   int
	Kind string
	// Button is the button that changed: 0 primary, 1 middle, 2 secondary.
	Button int
	// Pos is where, in CSS pixels from the canvas's top-left corner.
	Pos Point
	// Time is when the event happened, on the clock the host feeds the app.
	Time time.Duration
	// OnCanvas: the event's target is the app's canvas. A press elsewhere
	// on the page (a link box, a message) is not the app's.
	OnCanvas bool
}

// QueuedPointer is one input a PointerQueue hands on: a pointer event, or
// with Hover where a mouse with no button down now is (Event.Pos only).
type QueuedPointer struct {
	Event PointerEvent
	Hover bool
}

// PointerQueue keeps a page's pointer events, as they arrive between
// frames, until the frame loop takes them in order. A host that instead
// samples the pointer once a frame loses a press and release that both
// fall between two frames, which a slow frame (a loaded machine, a phone)
// makes common. It is safe for use from several goroutines; the zero value
// is ready.
type PointerQueue struct {
	mu   sync.Mutex
	in   []QueuedPointer
	down map[int]int // pointers pressed on the canvas: page id → app id
}

// Push adds a page's pointer event, translated for the app: the mouse is
// pointer 0, other pointers their page id plus one; a move with no button
// down is hover (the mouse only, over the canvas, one kept per run of
// moves); a press counts only on the canvas and with the primary or
// secondary button, and later events of a pointer not pressed there are
// dropped. It reports whether the event was kept.
func (q *PointerQueue) Push(e PagePointer) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	id, down := q.down[e.ID]
	ev := PointerEvent{ID: id, Pos: e.Pos, Time: e.Time, Touch: e.Kind == "touch"}
	switch e.Type {
	case "pointerdown":
		if down || !e.OnCanvas || (e.Button != 0 && e.Button != 2) {
			return false
		}
		id = 0
		if e.Kind != "mouse" {
			id = e.ID + 1
		}
		if q.down == nil {
			q.down = map[int]int{}
		}
		q.down[e.ID] = id
		ev.ID, ev.Action, ev.Secondary = id, PointerDown, e.Button == 2
	case "pointermove":
		if !down {
			if e.Kind != "mouse" || !e.OnCanvas {
				return false
			}
			if n := len(q.in); n > 0 && q.in[n-1].Hover {
				q.in[n-1].Event = ev
				return true
			}
			q.in = append(q.in, QueuedPointer{Event: ev, Hover: true})
			return true
		}
		ev.Action = PointerMove
	case "pointerup", "pointercancel":
		if !down {
			return false
		}
		delete(q.down, e.ID)
		ev.Action = PointerUp
		if e.Type == "pointercancel" {
			ev.Action = PointerCancel
		}
	default:
		return false
	}
	q.in = append(q.in, QueuedPointer{Event: ev})
	return true
}

// Pending reports whether events wait to be taken.
func (q *PointerQueue) Pending() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.in) > 0
}

// Take appends the waiting events to dst, oldest first, and empties the
// queue.
func (q *PointerQueue) Take(dst []QueuedPointer) []QueuedPointer {
	q.mu.Lock()
	defer q.mu.Unlock()
	dst = append(dst, q.in...)
	q.in = q.in[:0]
	return dst
}

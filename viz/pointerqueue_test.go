package viz

import (
	"reflect"
	"testing"
)

func TestPointerQueueKeepsAQuickClick(t *testing.T) {
	var q PointerQueue
	p := Pt(40, 30)
	q.Push(PagePointer{Type: "pointerdown", ID: 1, Kind: "mouse", Pos: p, Time: 10 * ms, OnCanvas: true})
	q.Push(PagePointer{Type: "pointerup", ID: 1, Kind: "mouse", Pos: p, Time: 30 * ms, OnCanvas: true})
	if !q.Pending() {
		t.Fatal("nothing pending after a click")
	}
	got := q.Take(nil)
	want := []QueuedPointer{
		{Event: PointerEvent{Action: PointerDown, Pos: p, Time: 10 * ms}},
		{Event: PointerEvent{Action: PointerUp, Pos: p, Time: 30 * ms}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("took %+v, want %+v", got, want)
	}
	if q.Pending() || len(q.Take(nil)) != 0 {
		t.Error("the queue still holds events after Take")
	}

	// Both events, taken in one frame, make one click for the recognizer.
	l := NewLayout(1280, 800, 5, true)
	node := l.Nodes[2].Center
	q.Push(PagePointer{Type: "pointerdown", ID: 1, Kind: "mouse", Pos: node, OnCanvas: true})
	q.Push(PagePointer{Type: "pointerup", ID: 1, Kind: "mouse", Pos: node, Time: ms, OnCanvas: true})
	var g Recognizer
	var gs []Gesture
	for _, in := range q.Take(nil) {
		if r := g.Feed(&l, nil, in.Event); r.Kind != GestureNone {
			gs = append(gs, r)
		}
	}
	if len(gs) != 1 || gs[0].Kind != GestureTap || gs[0].Target.Node != 2 {
		t.Errorf("a click queued between two frames gave %+v, want one tap on machine 3", gs)
	}
}

func TestPointerQueueTranslates(t *testing.T) {
	var q PointerQueue
	at := func(x float64) Point { return Pt(x, 5) }
	evs := []PagePointer{
		// Hover over the canvas: only the last of a run of moves is kept.
		{Type: "pointermove", ID: 1, Kind: "mouse", Pos: at(1), OnCanvas: true},
		{Type: "pointermove", ID: 1, Kind: "mouse", Pos: at(2), OnCanvas: true},
		// Off the canvas a move is nothing, and so is a press.
		{Type: "pointermove", ID: 1, Kind: "mouse", Pos: at(3)},
		{Type: "pointerdown", ID: 1, Kind: "mouse", Pos: at(3)},
		{Type: "pointerup", ID: 1, Kind: "mouse", Pos: at(3)},
		// A finger is pointer id+1, and touch; its moves are moves even
		// off the canvas once it pressed on it.
		{Type: "pointerdown", ID: 7, Kind: "touch", Pos: at(4), OnCanvas: true},
		{Type: "pointermove", ID: 7, Kind: "touch", Pos: at(5)},
		// The middle button presses nothing; a secondary press is marked.
		{Type: "pointerdown", ID: 1, Kind: "mouse", Button: 1, Pos: at(6), OnCanvas: true},
		{Type: "pointerdown", ID: 1, Kind: "mouse", Button: 2, Pos: at(6), OnCanvas: true},
		// A second press of a pointer already down is nothing.
		{Type: "pointerdown", ID: 7, Kind: "touch", Pos: at(7), OnCanvas: true},
		{Type: "pointercancel", ID: 7, Kind: "touch", Pos: at(8)},
		{Type: "pointerup", ID: 1, Kind: "mouse", Pos: at(9), OnCanvas: true},
		// A finger that does not press hovers nothing.
		{Type: "pointermove", ID: 8, Kind: "touch", Pos: at(10), OnCanvas: true},
		{Type: "wheel", ID: 1, Kind: "mouse", Pos: at(11), OnCanvas: true},
	}
	for _, e := range evs {
		q.Push(e)
	}
	want := []QueuedPointer{
		{Event: PointerEvent{Pos: at(2)}, Hover: true},
		{Event: PointerEvent{Action: PointerDown, ID: 8, Pos: at(4), Touch: true}},
		{Event: PointerEvent{Action: PointerMove, ID: 8, Pos: at(5), Touch: true}},
		{Event: PointerEvent{Action: PointerDown, Pos: at(6), Secondary: true}},
		{Event: PointerEvent{Action: PointerCancel, ID: 8, Pos: at(8), Touch: true}},
		{Event: PointerEvent{Action: PointerUp, Pos: at(9)}},
	}
	if got := q.Take(nil); !reflect.DeepEqual(got, want) {
		t.Errorf("took\n%+v\nwant\n%+v", got, want)
	}
}

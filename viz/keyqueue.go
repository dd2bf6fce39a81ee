package viz

import (
	"strings"
	"sync"
)

// PageKey is one key press as a web page's keydown listener sees it.
type PageKey struct {
	// Key is the event's key: the character typed (" ", "c", "?") or the
	// key's name ("Escape").
	Key string
	// Ctrl, Alt, Meta: a modifier was held; such a press belongs to the
	// browser (copy, reload), not the app.
	Ctrl, Alt, Meta bool
	// OnCanvas: the focus is on the app's canvas (or nowhere). A key typed
	// in a box on the page, or pressed on one of the page's buttons, is
	// not the app's.
	OnCanvas bool
}

// KeyQueue keeps the key presses a page sees, as they arrive between
// frames, until the frame loop takes them in order. A host that instead
// reads the keys once a frame loses a press and release that both fall
// between two frames, common at a few frames a second. It is safe for use
// from several goroutines; the zero value is ready.
type KeyQueue struct {
	mu sync.Mutex
	in []string
}

// Push adds a key press if it is one the app answers (a bound key or
// Escape, on the canvas, with no modifier) and reports whether it kept
// it.
func (q *KeyQueue) Push(k PageKey) bool {
	if !k.OnCanvas || k.Ctrl || k.Alt || k.Meta {
		return false
	}
	if _, ok := CommandForKey(k.Key); !ok && !strings.EqualFold(k.Key, "Escape") {
		return false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.in = append(q.in, k.Key)
	return true
}

// Pending reports whether presses wait to be taken.
func (q *KeyQueue) Pending() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.in) > 0
}

// Take appends the waiting presses to dst, oldest first, and empties the
// queue.
func (q *KeyQueue) Take(dst []string) []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	dst = append(dst, q.in...)
	q.in = q.in[:0]
	return dst
}

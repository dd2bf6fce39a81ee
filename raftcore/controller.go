package raftcore

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Controllers. A controller is a client that reads an object, thinks for a
// while, and writes back a value computed from what it read, as a
// Kubernetes controller reconciles an object through the API server. It is
// started by one recorded action ("control") and every later step is an
// event of the world's own queue, so a run with controllers replays from its
// action log like any other.
//
// With Cas off the write is a plain put: if someone changed the object
// between the read and the write, that change is overwritten unseen (a lost
// update; see checker.onLostUpdate). With Cas on the write is a
// compare-and-swap on the revision read, and a conflict sends the
// controller back to read again.

// ControllerState is where a controller is in its loop.
type ControllerState string

const (
	ControllerReading  ControllerState = "reading"
	ControllerThinking ControllerState = "thinking"
	ControllerWriting  ControllerState = "writing"
	ControllerDone     ControllerState = "done"
	ControllerGaveUp   ControllerState = "gave up"
)

// maxControllerReads bounds a controller's reads: each failed read or lost
// swap costs one, so a controller that never wins gives up instead of
// looping for ever.
const maxControllerReads = 5

// Controller is one controller and what it has done so far.
type Controller struct {
	ID      int             `json:"id"`
	Node    NodeID          `json:"node"`
	Key     string          `json:"key"`
	Change  string          `json:"change"`
	ThinkUs int64           `json:"think_us"`
	Cas     bool            `json:"cas,omitempty"`
	State   ControllerState `json:"state"`
	// Ops are the ids of the controller's requests in the order it made
	// them, a read first; Reads counts the reads among them. A request
	// the history has forgotten (Config.HistoryLimit) keeps its id here;
	// World.Op no longer finds it.
	Ops   []int `json:"ops"`
	Reads int   `json:"reads"`
	// Why says why a controller gave up.
	Why string `json:"why,omitempty"`

	// What the controller will write once it has thought: the value and the
	// revision it was computed from.
	next    string
	basedOn uint64
}

// Controllers returns every controller started so far, in start order.
func (w *World) Controllers() []Controller {
	out := make([]Controller, len(w.controllers))
	for i, c := range w.controllers {
		c.Ops = append([]int(nil), c.Ops...)
		out[i] = c
	}
	return out
}

// Controller returns the controller an operation belongs to.
func (w *World) Controller(id int) (Controller, bool) {
	if id < 1 || id > len(w.controllers) {
		return Controller{}, false
	}
	c := w.controllers[id-1]
	c.Ops = append([]int(nil), c.Ops...)
	return c, true
}

// controllerOf is the controller that made operation id, 0 if none did.
// It reads the controllers' own lists, which keep the ids of requests the
// history has forgotten: a controller's write that timed out may be
// applied long after.
func (w *World) controllerOf(id int) int {
	if op := w.opRef(id); op != nil {
		return op.Controller
	}
	for _, c := range w.controllers {
		if slices.Contains(c.Ops, id) {
			return c.ID
		}
	}
	return 0
}

func cloneControllers(cs []Controller) []Controller {
	out := make([]Controller, len(cs))
	for i, c := range cs {
		c.Ops = append([]int(nil), c.Ops...)
		out[i] = c
	}
	return out
}

func (w *World) startController(a Action) {
	c := Controller{ID: len(w.controllers) + 1, Node: NodeID(a.Node), Key: a.Key, Change: a.Change,
		ThinkUs: msToUs(a.ThinkMs), Cas: a.Cas}
	w.controllers = append(w.controllers, c)
	w.controllerRead(c.ID)
}

func (w *World) controllerRead(id int) {
	c := &w.controllers[id-1]
	c.State = ControllerReading
	c.Reads++
	// The request is noted before it is made: invoke may answer it at
	// once and move the controller on.
	c.Ops = append(c.Ops, w.nextOpID())
	w.invoke(Op{Kind: DoRead, Node: c.Node, Key: c.Key, Mode: ReadLinearizable, Controller: id})
}

// controllerHeard moves a controller on when one of its requests ends. It
// runs inside the handling of an event, so it only schedules what comes
// next: a later event makes the next request.
func (w *World) controllerHeard(op Op) {
	c := &w.controllers[op.Controller-1]
	if op.Kind == DoRead {
		if op.Result != OpOK {
			// No leader, most likely: wait an election timeout, as a
			// client backs off, before asking again.
			w.controllerRetry(c, "its read was "+string(op.Result)+": "+op.Reason, int64(w.cfg.ElectionTicks*w.cfg.TickMs)*1000)
			return
		}
		next, err := applyChange(op.ReadValue, c.Change)
		if err != nil {
			c.State, c.Why = ControllerGaveUp, err.Error()
			return
		}
		c.State, c.next, c.basedOn = ControllerThinking, next, op.ReadRev
		w.schedule(event{at: w.now + c.ThinkUs, kind: evControl, op: c.ID})
		return
	}
	switch op.Result {
	case OpOK:
		c.State = ControllerDone
	case OpConflict:
		w.controllerRetry(c, "every swap it tried found a newer revision", 0)
	default:
		// A write that was refused or timed out may still be applied
		// later; trying again could apply the change twice, so the
		// controller stops and says so.
		c.State, c.Why = ControllerGaveUp, "its write was "+string(op.Result)+": "+op.Reason
	}
}

// controllerRetry reads again after a wait, unless the controller has read
// as often as it may.
func (w *World) controllerRetry(c *Controller, why string, waitUs int64) {
	if c.Reads >= maxControllerReads {
		c.State, c.Why = ControllerGaveUp, why
		return
	}
	c.State = ControllerReading
	w.schedule(event{at: w.now + waitUs, kind: evControl, op: c.ID})
}

// controllerWake makes a controller's next request: the write once it has
// thought, or a fresh read.
func (w *World) controllerWake(id int) {
	c := &w.controllers[id-1]
	switch c.State {
	case ControllerReading:
		w.controllerRead(id)
	case ControllerThinking:
		c.State = ControllerWriting
		op := Op{Kind: DoWrite, Node: c.Node, Key: c.Key, Value: c.next, Controller: id, Based: true, BasedOn: c.basedOn}
		if c.Cas {
			op.Cas, op.IfRev = true, c.basedOn
		}
		c.Ops = append(c.Ops, w.nextOpID())
		w.invoke(op)
	}
}

// applyChange computes a controller's new value from the value it read.
// Values are fields "name=value" separated by spaces ("replicas=3
// image=web:1"); a change "name+N" adds N to a number (a missing field
// counts as 0) and "name=value" sets a field, keeping the others and their
// order.
func applyChange(value, change string) (string, error) {
	name, arg, add, err := parseChange(change)
	if err != nil {
		return "", err
	}
	fields := strings.Fields(value)
	for i, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		if !ok || k != name {
			continue
		}
		if !add {
			fields[i] = name + "=" + arg
			return strings.Join(fields, " "), nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return "", fmt.Errorf("%s is %q, not a number to add to", name, v)
		}
		d, _ := strconv.Atoi(arg)
		fields[i] = name + "=" + strconv.Itoa(n+d)
		return strings.Join(fields, " "), nil
	}
	return strings.Join(append(fields, name+"="+arg), " "), nil
}

// parseChange splits "name+N" or "name=value".
func parseChange(change string) (name, arg string, add bool, err error) {
	i := strings.IndexAny(change, "+=")
	if i <= 0 || i == len(change)-1 {
		return "", "", false, fmt.Errorf("change: %q is not \"name+N\" (add N to a number) or \"name=value\" (set a field)", change)
	}
	name, arg, add = change[:i], change[i+1:], change[i] == '+'
	if strings.ContainsAny(name, " =+") || strings.ContainsAny(arg, " ") {
		return "", "", false, fmt.Errorf("change: %q: a field's name and value are single words, e.g. replicas+1 or image=web:2", change)
	}
	if add {
		if n, convErr := strconv.Atoi(arg); convErr != nil || n < 1 || n > 1000 {
			return "", "", false, fmt.Errorf("change: %q adds %q; want a whole number from 1 to 1000", change, arg)
		}
	}
	return name, arg, add, nil
}

// maxThinkMs bounds a controller's thinking time (one virtual minute).
const maxThinkMs = 60000

// validateVersioned checks the fields of conditional writes and
// controllers, which other verbs must leave unset.
func (a Action) validateVersioned() error {
	if a.IfRev != nil && a.Do != DoWrite {
		return fmt.Errorf("if_rev: only a write can be a compare-and-swap, not %s", a.Do)
	}
	if a.Do != DoControl {
		switch {
		case a.Change != "":
			return fmt.Errorf("change: only a control action has a change, not %s", a.Do)
		case a.ThinkMs != 0:
			return fmt.Errorf("think_ms: only a control action thinks, not %s", a.Do)
		case a.Cas:
			return fmt.Errorf("cas: only a control action takes cas; a write is made conditional with if_rev")
		}
		return nil
	}
	if a.Change == "" {
		return fmt.Errorf("change: control needs a change, e.g. \"replicas+1\" or \"image=web:2\"")
	}
	if _, _, _, err := parseChange(a.Change); err != nil {
		return err
	}
	if !(a.ThinkMs >= 0 && a.ThinkMs <= maxThinkMs) {
		return fmt.Errorf("think_ms: %g is out of range: use 0 to %d", a.ThinkMs, maxThinkMs)
	}
	return nil
}

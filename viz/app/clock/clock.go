// Package clock is the app's time: whether virtual time runs and how
// fast, the real time that has passed since the last tick, and, for a
// figure played a step at a time, where it rests next. It knows nothing
// of the world it drives: the app asks it how far to run the world each
// tick, and tells it when to rest.
package clock

import (
	"math"
	"time"

	"raftlab/viz"
)

// maxGap is the longest real time one tick may count: a hidden tab or a
// debugger must not make the world leap.
const maxGap = 250 * time.Millisecond

// Pace is when a figure playing to its story's next step rests: at step
// Goal (-1: none) or at virtual time UntilUs at the latest (0: none).
type Pace struct {
	Goal    int
	UntilUs int64
}

// Resting is the pace of a clock that plays to no step.
var Resting = Pace{Goal: -1}

// Clock owns the app's time.
type Clock struct {
	visible bool
	paused  bool
	speed   float64
	// now is the real time of the last tick, last the one before; started
	// is false until a tick has set them (a fresh start counts no time).
	now, last time.Duration
	started   bool
	// carry is virtual microseconds owed but not yet run.
	carry float64
	pace  Pace
}

// New is a clock running at speed (virtual seconds per real second).
func New(speed float64) *Clock {
	return &Clock{visible: true, speed: speed, pace: Resting}
}

// Visible reports whether the app is in view: out of view, no time runs.
func (c *Clock) Visible() bool { return c.visible }

// SetVisible shows or hides the app; it reports whether that changed.
// The hidden time never counts as elapsed.
func (c *Clock) SetVisible(v bool) bool {
	if c.visible == v {
		return false
	}
	c.visible, c.started = v, false
	return true
}

// Paused reports whether virtual time stands still.
func (c *Clock) Paused() bool { return c.paused }

// SetPaused stops or starts virtual time.
func (c *Clock) SetPaused(p bool) { c.paused, c.started = p, false }

// Speed is virtual seconds per real second.
func (c *Clock) Speed() float64 { return c.speed }

// SetSpeed sets the speed, kept to the slider's range (a NaN changes
// nothing).
func (c *Clock) SetSpeed(s float64) {
	if !math.IsNaN(s) {
		c.speed = math.Min(math.Max(s, viz.MinSpeed), viz.MaxSpeed)
	}
}

// Now is the real time of the last tick.
func (c *Clock) Now() time.Duration { return c.now }

// Tick moves the clock to real time now and returns how many virtual
// microseconds the world should run: none while hidden, paused or held
// (the help covers the screen), and never for more than maxGap of real
// time at once.
func (c *Clock) Tick(now time.Duration, held bool) int64 {
	c.now = now
	if !c.started {
		c.started, c.last = true, now
	}
	dt := min(now-c.last, maxGap)
	c.last = now
	if !c.visible || c.paused || held {
		return 0
	}
	c.carry += float64(dt.Microseconds()) * c.speed
	if c.carry < 1 {
		return 0
	}
	step := int64(c.carry)
	c.carry -= float64(step)
	return step
}

// Restart makes the next tick start afresh, counting no time since the
// last: for a host that stopped ticking while the app rested.
func (c *Clock) Restart() { c.started = false }

// Forget drops the virtual time owed: the world shown moved by other means
// (a seek, a new world).
func (c *Clock) Forget() { c.carry = 0 }

// Pace is where a playing figure rests next.
func (c *Clock) Pace() Pace { return c.pace }

// Play runs virtual time until the pace says to rest.
func (c *Clock) Play(p Pace) {
	c.SetPaused(false)
	c.pace = p
}

// Rest stops virtual time and forgets the pace.
func (c *Clock) Rest() {
	c.paused, c.pace = true, Resting
}

// RunUntil makes a playing figure run at least to virtual time us.
func (c *Clock) RunUntil(us int64) { c.pace.UntilUs = max(c.pace.UntilUs, us) }

// RestIfDue rests a playing figure once the story has reached its goal
// step (step is the story's step now) or the clock virtual time nowUs has
// passed the pace's time. It reports whether it rested.
func (c *Clock) RestIfDue(step int, nowUs int64) bool {
	if c.paused {
		return false
	}
	p := c.pace
	if (p.Goal >= 0 && step >= p.Goal) || (p.UntilUs > 0 && nowUs >= p.UntilUs) {
		c.Rest()
		return true
	}
	return false
}

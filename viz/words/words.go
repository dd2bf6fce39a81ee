// Package words writes every word raftlab's screen shows a reader, from
// the typed facts the world, its timeline and the app give: machines'
// roles, messages, client operations and their outcomes, actions,
// timeline marks, contract clauses and safety rules, the notes in the
// banner, the labels of panels, menus, controls and the key, the help,
// and the description for screen readers. The app and its frame builder
// hold no English: they pick the words by calling this package, and a test
// (guard_test.go) fails on any literal in viz/app or viz that reads as
// words for a reader.
//
// Files are by topic: the machines (machines.go, roles.go, stage.go),
// messages, entries, client operations (ops.go), actions, marks, the
// contract and the rules; then the panels, menus, controls, the timing
// panels, the key (legend.go), the help, the banner's notes and the
// description for screen readers (describe.go).
//
// A Voice says how the screen speaks: at which rung of the book's ladder
// of words (Level): Raft's own (terms, votes and leaders; the failover's
// authority), or the chapter's, which never shows Raft's mechanism and,
// before "The Two Leaders", speaks of no machine in charge either; and
// to which hand, a mouse's or a finger's.
//
// What is not for a reader stays where it is used: widget ids, command
// lines (such as "crash 2") and the command table's usage and docs (for
// docs/embedding.md), key names, panel names (which commands take),
// JSON field names, and the messages of errors made with fmt.Errorf or
// errors.New and of a page's bad parameters, which go back, as they are,
// to whoever gave them. So does the trace's own text (an action's trace
// form, the names of causes and refusals, a checker's explanation of a
// broken rule), which the command-line tools print; where the screen
// shows a checker's explanation, it shows it as the checker wrote it.
//
// The package imports only raftlab's core (raftcore, its timeline, the
// linearizability check), so that whatever shows words can use it: the
// app, and the figures' stories, which tell the contract in its words.
package words

import (
	"math"
	"strconv"

	"raftlab/raftcore"
)

// Voice is how the screen speaks of a world.
type Voice struct {
	// Cfg is the world's configuration: its protocol and machines' names.
	Cfg *raftcore.Config
	// Level is the rung of the book's ladder of words the screen speaks.
	Level Level
	// HideRule: the figure asks the reader to find when there is enough
	// agreement to accept a write, and nothing on screen states the rule
	// (a majority, so many votes needed).
	HideRule bool
	// Touch: the reader's hand is a finger, not a mouse and keys.
	Touch bool
}

// Level is a rung of the book's ladder of words: how much of Raft's
// vocabulary the screen may speak (the app picks it from the figure's
// scenarios.Words).
type Level uint8

const (
	// LevelRaft speaks Raft's own words: leader, follower, candidate,
	// term, vote, heartbeat, election, lease.
	LevelRaft Level = iota
	// LevelContract speaks the chapter's words from its contract on: a
	// machine in charge, groups, writes accepted or waiting, and Raft by
	// name, but nothing of its mechanism.
	LevelContract
	// LevelInCharge speaks of a machine in charge and of groups, and does
	// not name Raft.
	LevelInCharge
	// LevelCopies speaks of machines, copies, history, active, silent,
	// accepted and waiting: no machine leads or is in charge (the one Raft
	// makes leader is the machine that takes the writes), and no majority
	// decides (enough machines agree).
	LevelCopies
)

// Plain reports whether the screen keeps Raft's mechanism from the
// reader: no terms, votes, candidates, heartbeats, elections or leases.
func (v Voice) Plain() bool { return v.Level != LevelRaft }

// InCharge reports whether the screen may speak of one machine in charge
// of the others; below that rung the machine Raft makes leader is the one
// that takes the writes.
func (v Voice) InCharge() bool { return v.Level != LevelCopies }

// NamesRaft reports whether the screen may name Raft.
func (v Voice) NamesRaft() bool { return v.Level <= LevelContract }

// Majority reports whether the screen may state the rule of enough
// agreement, that a majority decides: not before the chapter speaks of a
// majority, nor in a figure that asks the reader to find the rule.
func (v Voice) Majority() bool { return !v.HideRule && v.Level != LevelCopies }

// ForHand is the words for the reader's hand: touch for a finger, mouse
// for a mouse and keyboard. Hints that name a key or a click say what to
// tap instead on a touch screen.
func (v Voice) ForHand(mouse, touch string) string {
	if v.Touch {
		return touch
	}
	return mouse
}

// Itoa writes a whole number.
func Itoa(n int) string { return strconv.Itoa(n) }

// Utoa writes a whole number such as an index or a term.
func Utoa(v uint64) string { return strconv.FormatUint(v, 10) }

// Ms writes a duration in microseconds as milliseconds or seconds.
func Ms(us int64) string {
	switch {
	case us < 0:
		return "-" + Ms(-us)
	case us < 10_000:
		return strconv.FormatFloat(float64(us)/1000, 'f', 1, 64) + " ms"
	case us < 1_000_000:
		return strconv.FormatInt((us+500)/1000, 10) + " ms"
	case us < 100_000_000:
		return strconv.FormatFloat(float64(us)/1e6, 'f', 2, 64) + " s"
	}
	return strconv.FormatFloat(float64(us)/1e6, 'f', 0, 64) + " s"
}

// Clock writes a virtual time as seconds with milliseconds.
func Clock(us int64) string {
	return strconv.FormatFloat(float64(us)/1e6, 'f', 3, 64) + " s"
}

// ClockIn writes a virtual time as Clock does or, for a run told in
// seconds (a lease's renewals and grace period), as seconds to a tenth:
// "73.4 s", which a reader takes in at a glance where "73.412 s" makes
// the milliseconds look as if they mattered.
func ClockIn(us int64, seconds bool) string {
	if seconds {
		return tenths(us)
	}
	return Clock(us)
}

// tenths writes a virtual time as seconds with tenths, for a mark's span.
func tenths(us int64) string {
	return strconv.FormatFloat(float64(us)/1e6, 'f', 1, 64) + " s"
}

// elapsed writes how long something took, for a mark's hover text.
func elapsed(us int64) string {
	if us < 1_000_000 {
		return strconv.FormatInt((us+500)/1000, 10) + " ms"
	}
	return tenths(us)
}

// Percent writes a share as a percentage to a tenth.
func Percent(p float64) string {
	return strconv.FormatFloat(math.Round(p*1000)/10, 'g', 3, 64) + "%"
}

// Factor writes a rate such as a slowdown or a clock's drift: "2x".
func Factor(f float64) string {
	return strconv.FormatFloat(f, 'g', 3, 64) + "x"
}

// Capital upper-cases the first letter of s.
func Capital(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// Count is n and a noun, singular or plural.
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Plural is one for n of 1, many otherwise.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Latency writes a link's latency range in whole milliseconds, as one
// number when the range is a single value ("400 ms", not "400–400 ms").
func Latency(minUs, maxUs int64) string {
	lo, hi := strconv.FormatInt(minUs/1000, 10), strconv.FormatInt(maxUs/1000, 10)
	if lo == hi {
		return lo + " ms"
	}
	return lo + "–" + hi + " ms"
}

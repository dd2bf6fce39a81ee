// Package scenarios holds the book's interactive figures as data.
//
// A Scenario is a starting world (protocol, machines, names, options), a
// prompt telling the reader what to try, narrative steps that advance when
// something checkable happens in the simulation, a scripted autoplay that
// demonstrates the figure without a reader, hints for the app (which panels
// to show, which machines to highlight, which key to ask about), and an
// Expect check that tests run against the finished autoplay. Whatever a
// scenario says about a particular run (the closing "what just happened"
// line, and step texts that name machines, terms, times or counts) is
// computed from that run, never written in advance.
//
// Some figures offer the reader a choice before they start (the protocol to
// compare, the cluster size, the shape of a split). Those are Knobs; With
// returns the scenario built for another value, with its own steps, script
// and checks.
//
// The app drives a world itself in free play; a Tracker watches that world
// and moves through the steps as their conditions come true.
package scenarios

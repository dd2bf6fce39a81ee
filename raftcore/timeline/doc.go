// Package timeline is raftlab's time machine: it keeps a run's history so a
// reader can pause, step back one event, scrub to any moment, jump between
// notable moments, act in the past (which forks the run), share the run as a
// link and export it as a schedule.
//
// A world is fully determined by its Config and its action log, so the
// timeline stores only those plus clones of the world taken now and then
// (checkpoints). Any earlier moment is rebuilt by restoring the nearest
// checkpoint before it and replaying the log from there; the rebuilt world is
// identical to the one the reader saw live (same trace hash, same event
// count, same clock). Opening a link or a schedule replays it from the
// start; an Opening does that a piece at a time, and a link may ask for
// only so much replaying (LinkFreeTicks), checked before any.
//
// The package is plain Go over raftcore: it draws nothing and imports no
// graphics library, so it is tested headless, natively and under GOOS=js.
package timeline

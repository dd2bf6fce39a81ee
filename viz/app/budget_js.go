//go:build js

package app

// readCheckBudget sets no bound in the browser. There a running goroutine
// is not preempted, so porcupine's timer cannot cut a long search short,
// while it can cut off a short one that was not scheduled in time (in Node
// a first check of three operations with a 1 ms bound came back unjudged
// after 88 ms; later ones took under a millisecond): a bound would only
// turn some verdicts into "not judged" for no gain.
const readCheckBudget = -1

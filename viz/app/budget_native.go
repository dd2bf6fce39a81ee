//go:build !js

package app

import "time"

// readCheckBudget bounds each linearizability search the client panel
// makes. The lab's histories take well under a millisecond (BENCHMARKS.md);
// a pathological one would hold one frame this long and then say its reads
// were not judged, rather than freeze the window.
const readCheckBudget = 100 * time.Millisecond

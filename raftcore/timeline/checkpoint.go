package timeline

import (
	"unsafe"

	"raftlab/raftcore"
)

// Checkpoints.
//
// A checkpoint is a clone of the world taken right after event number k*S
// (S = Options.CheckpointEvents) when the run first gets there; the world
// at the start (k = 0) is always kept. With K the newest checkpoint's k:
//
//   - the dense tail: every checkpoint with K-k < D (Options.DenseCheckpoints)
//     is kept, so stepping back and seeking near the head replay at most S
//     events;
//   - the rest are kept only when k is a multiple of 2^m: they are 2^m*S
//     events apart, evenly over the run. m starts at 0 and grows by one
//     (dropping every other one) whenever more than U of them
//     (Options.SpacedCheckpoints) would be kept, or when all checkpoints
//     together would take more than Options.CheckpointBytes.
//
// The bound: at most 1 + D + U checkpoints, taking at most CheckpointBytes
// (as estimated by worldBytes) unless the newest world alone is bigger,
// then just the start and the newest. Seeking anywhere replays at most
// 2^m*S events, at most 2*(events so far)/U while the byte budget is not
// what limits. Even spacing is the best use of a fixed number of
// checkpoints for seeks to random moments; the tail keeps the head cheap.
// A ghost branch (see Act) keeps its own checkpoints, which can double all
// this, and up to nearCheckpoints transient clones (see moveTo) come on
// top. With the defaults, ten minutes of five machines taking a write
// every 200 ms keep 36 checkpoints holding about 13 MB (BENCHMARKS.md).

type checkpoint struct {
	pos   Position
	w     *raftcore.World
	bytes int64 // worldBytes(w)
}

// nearCheckpoints is the number of transient clones kept near the moment
// last stepped back to, S/8 events apart, so that stepping back again
// replays at most S/8 events even where checkpoints are far apart.
const nearCheckpoints = 4

// worldBytes estimates the memory a checkpoint of w (World.Keep) holds:
// what grows with the run (client operations from the first still waiting
// on, log entries, the checker's record of applied entries, the kept
// trace), plus a small fixed part. Log entries are shared between clones
// until the log grows, so under steady writes each clone ends up holding
// its own copy; they are counted in full. The action log and the answered
// client operations are shared with the world the checkpoint was kept
// from (World.Clone, World.Keep) and not counted.
func worldBytes(w *raftcore.World) int64 {
	var entries, top uint64
	for i := 1; i <= w.Size(); i++ {
		// The entries the log holds: those before its first index were
		// compacted into a snapshot.
		nd := w.Node(raftcore.NodeID(i))
		n := nd.LastIndex() + 1 - nd.FirstIndex()
		entries += n
		top = max(top, n)
	}
	const fixed = 16 << 10
	return fixed +
		int64(w.KeptOps())*int64(unsafe.Sizeof(raftcore.Op{})) +
		int64(entries)*int64(unsafe.Sizeof(raftcore.Entry{})) +
		int64(top)*int64(unsafe.Sizeof(raftcore.Entry{})+16) +
		int64(len(w.Trace()))*int64(unsafe.Sizeof(raftcore.TraceEvent{}))
}

// checkpointRule is the thinning rule's parameters.
type checkpointRule struct {
	every  uint64 // S
	dense  uint64 // D
	spaced int    // U
	budget int64  // bytes
}

// thinCheckpoints applies the rule to cps (sorted, start first, newest
// last) after a checkpoint was added, raising *m as needed.
func thinCheckpoints(cps []checkpoint, r checkpointRule, m *uint) []checkpoint {
	newest := cps[len(cps)-1].pos.Events / r.every
	for {
		out := cps[:0]
		spaced, bytes := 0, int64(0)
		for _, c := range cps {
			k := c.pos.Events / r.every
			dense := newest-k < r.dense
			if k == 0 || dense || k&(1<<*m-1) == 0 {
				out = append(out, c)
				bytes += c.bytes
				if k != 0 && !dense {
					spaced++
				}
			}
		}
		clear(cps[len(out):])
		cps = out
		if spaced <= r.spaced && bytes <= r.budget {
			return cps
		}
		if spaced == 0 {
			// Only the start and the tail are left and they are too big:
			// drop the oldest of the tail, keeping the newest.
			for len(cps) > 2 && bytes > r.budget {
				bytes -= cps[1].bytes
				copy(cps[1:], cps[2:])
				cps[len(cps)-1] = checkpoint{}
				cps = cps[:len(cps)-1]
			}
			return cps
		}
		*m++
	}
}

// checkpointBefore returns the latest checkpoint from which target can be
// reached; the start always qualifies.
func checkpointBefore(cps []checkpoint, target Position) checkpoint {
	for i := len(cps) - 1; i > 0; i-- {
		if cps[i].pos.within(target) {
			return cps[i]
		}
	}
	return cps[0]
}

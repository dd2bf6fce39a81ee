package words

import (
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The words for log entries: what an entry holds, as the logs' hover
// text, a machine's newest entries and the contract say it.

// Entry says what an entry's command does: "deployments/web=replicas=3",
// "k=v if rev 2" for a swap, "delete k", or "(empty)" for a leader's
// empty entry.
func Entry(c raftcore.Command) string {
	switch c.Kind {
	case raftcore.OpPut:
		if c.Cas {
			return c.Key + "=" + c.Value + " if rev " + strconv.FormatUint(c.BasedOn, 10)
		}
		return c.Key + "=" + c.Value
	case raftcore.OpDelete:
		return "delete " + c.Key
	case raftcore.OpConf:
		return ConfEntry(c.Conf)
	}
	return "(empty)"
}

// Cell is what a log cell shows of an entry where it shows no term: the
// value written, if short ("3" of "replicas=3"); for a value that is not a
// setting (an order: "4 lamps"), the short name its key ends in ("3" of
// "orders/3"), as the story names it; "w" for a longer write, "x" for a
// delete.
func Cell(c raftcore.Command) string {
	switch c.Kind {
	case raftcore.OpDelete:
		return "x"
	case raftcore.OpConf:
		return "±"
	case raftcore.OpPut:
		if _, v, ok := strings.Cut(c.Value, "="); ok && len(v) <= 3 {
			return v
		}
		if k := c.Key[strings.LastIndexByte(c.Key, '/')+1:]; !strings.Contains(c.Value, "=") && k != "" && len(k) <= 3 {
			return k
		}
		return "w"
	}
	return ""
}

// Earlier says that n entries come before the first the logs show.
func Earlier(n uint64) string { return "← " + Utoa(n) + " earlier" }

// Newer says that n entries come after the last the logs show.
func Newer(n uint64) string { return Utoa(n) + " newer →" }

// SnapBlock labels the block at a log row's start that stands for the
// entries compacted into a snapshot, by the last of them: "≤80".
func SnapBlock(last uint64) string { return "≤" + Utoa(last) }

// snapKeys is how many of a snapshot's keys its hover text lists.
const snapKeys = 4

// SnapTip says what a machine's snapshot is: the entries compacted into
// it (up to compacted), the index and term it was taken at, and the
// state it holds (kv), a few keys of it.
func (v Voice) SnapTip(s *raftcore.Snapshot, compacted uint64) []string {
	head := "Snapshot at index " + Utoa(s.Index)
	if !v.Plain() {
		head += ", term " + Utoa(s.Term)
	}
	lines := []string{head + ": entries 1–" + Utoa(compacted) + " are compacted into it"}
	kv := s.KV()
	keys := kv.Keys()
	if len(keys) == 0 {
		return append(lines, "It holds an empty state.")
	}
	var held []string
	for k, key := range keys {
		if k == snapKeys {
			held = append(held, AndMore(len(keys)-snapKeys))
			break
		}
		val, _ := kv.Get(key)
		held = append(held, key+"="+val.Value)
	}
	return append(lines, "It holds "+strings.Join(held, ", "))
}

package words

import (
	"strconv"

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
	}
	return "(empty)"
}

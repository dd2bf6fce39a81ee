package raftcore

// Answer is one machine's own answer to "does KEY exist?", read from the
// state it has applied. It is the book's opening picture: every machine is
// honest about what it has seen, and machines that have seen different things
// answer differently.
type Answer struct {
	Node NodeID `json:"node"`
	Name string `json:"name"`
	// Answered is false when the machine is down: a crashed machine gives no
	// answer at all.
	Answered bool `json:"answered"`
	// Paused is set when the machine is paused: it answers from what it had
	// when it stopped, however old that is.
	Paused bool `json:"paused,omitempty"`
	// Exists, Value and ModIndex describe the key in the machine's state:
	// ModIndex is the log index of the write that set Value.
	Exists   bool   `json:"exists"`
	Value    string `json:"value,omitempty"`
	ModIndex uint64 `json:"mod_index,omitempty"`
	// Applied is how far into its log the machine has applied.
	Applied uint64 `json:"applied"`
}

// Ask puts the question "does key exist?" to every machine, in id order.
// Each answers from its own applied state only; nothing is forwarded to a
// leader, which is exactly what makes the answers differ.
func (w *World) Ask(key string) []Answer {
	out := make([]Answer, 0, w.cfg.Nodes)
	for i := 1; i <= w.cfg.Nodes; i++ {
		id := NodeID(i)
		n := w.nodes[i]
		a := Answer{Node: id, Name: w.cfg.Name(id)}
		switch w.machines[i].status {
		case StatusCrashed:
			out = append(out, a)
			continue
		case StatusPaused:
			a.Paused = true
		}
		a.Answered = true
		a.Applied = n.applied
		if v, ok := n.kv.Get(key); ok {
			a.Exists, a.Value, a.ModIndex = true, v.Value, v.ModIndex
		}
		out = append(out, a)
	}
	return out
}

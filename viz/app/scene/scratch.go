package scene

import (
	"raftlab/raftcore"
	"raftlab/viz"
)

// scratch is scratch that building a frame reuses from one frame to the
// next: where each message dot is (for hit tests), and what the newest
// trace events say. It is replaced whole with the world.
type scratch struct {
	dots   []viz.MessageDot
	spots  []msgSpot
	lanes  [][]msgSpot
	recent recentState
	// obstacles are what the replay's tag must not hide.
	obstacles []viz.Rect
	// deploy is the world's deployment controllers, read once a frame
	// (none, and nothing allocated, in a world without them).
	deploy []raftcore.DeploymentController
	// ownOps is the client panel's list of the reader's own requests,
	// where Kubernetes' are counted apart.
	ownOps []raftcore.Op
}

// recentState is what the last moments of the trace say: heartbeats sent
// and messages dropped, for pulses and falling dots.
type recentState struct {
	beat  []int64 // per node: time of the last heartbeat sent, or -1
	drops []raftcore.TraceEvent
	// wire is the messages on the wire, in a buffer kept from build to
	// build: hundreds of messages are copied every frame.
	wire []raftcore.Message
	// labels are the boxes of the link labels kept (a reused buffer).
	labels []viz.Rect
}

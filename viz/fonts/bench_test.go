package fonts

import (
	"strings"
	"testing"
)

// BenchmarkShapeWords shapes a paragraph's words at one size, as measuring
// a frame's new words does (Measure remembers each word; this is the work
// of the first time).
func BenchmarkShapeWords(b *testing.B) {
	words := strings.Fields("With a 300 ms timeout failover took 387 ms, and the noise cost 15 elections and 9431 ms without a leader. " +
		"etcd's defaults (heartbeat 100 ms, timeout 1000 ms) sit between: calm through noise, failover in one to two seconds. " +
		"AV To Yo, LT'V P. W,A Tea fi fl office Waffle")
	f := face()
	b.ReportAllocs()
	for range b.N {
		for _, w := range words {
			f.shapedWidth(w, 13)
		}
	}
}

package timeline

import (
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// What a link may cost.
//
// Opening a link replays its run from the start, and a short link can ask
// for a long run: 60 characters of JSON say "nine machines for an hour",
// or for an hour ticking every millisecond, a hundred times the work. So a
// link may ask for only so much simulation, counted before anything is
// replayed as machine ticks (raftcore.MachineTicks: each machine's clock
// ticking once, every 100 ms by default), and in proportion to the data
// it carries: every link may ask for LinkFreeTicks, each byte of its run's
// data (the JSON the link compresses, as EncodeLink writes it) buys
// LinkTicksPerByte more, and no link asks for more than MaxLinkTicks. An
// hour of nine machines at etcd's tick is 324,000 machine ticks, so every
// such link opens whatever its size; the rule stops the runs that tick
// faster or longer than that without the actions to show for it.
// BENCHMARKS.md ("Opening a long link") has what the limits cost.
//
// The rule counts the canonical data, not the characters given: padding a
// link (whitespace in its JSON, empty blocks in its compressed stream)
// buys nothing, and a link that opens encodes again to one that opens.
const (
	LinkFreeTicks    = 400_000
	LinkTicksPerByte = 200
	MaxLinkTicks     = 600_000
)

// linkCost is a link cost rule: the constants above, or tighter ones for
// tests that must open every link they accept quickly.
type linkCost struct {
	free, perByte, most float64
}

// linkLimits is the rule DecodeLink and EncodeLink apply.
var linkLimits = linkCost{free: LinkFreeTicks, perByte: LinkTicksPerByte, most: MaxLinkTicks}

// allowance is how many machine ticks a link with dataBytes of run data
// may ask for.
func (c linkCost) allowance(dataBytes int) float64 {
	return min(c.most, c.free+c.perByte*float64(dataBytes))
}

// check refuses a link whose run asks for more than its data allows,
// saying what the run asks for and what the limit is.
func (c linkCost) check(l Link, dataBytes int) error {
	end := l.end()
	ticks := raftcore.MachineTicks(l.Config, l.Actions, end)
	allowed := c.allowance(dataBytes)
	if ticks <= allowed {
		return nil
	}
	return fmt.Errorf("this link asks for %s, %s machine ticks to replay; a link whose run is %s bytes of data may ask for at most %s (%s, plus %s a byte, never more than %s): export the run as a schedule and open that instead",
		runWords(l.Config, l.Actions, end), thousands(ticks), thousands(float64(dataBytes)), thousands(allowed),
		thousands(c.free), thousands(c.perByte), thousands(c.most))
}

// runWords says how long a run is and what it runs on, for a person:
// "1 hour of 9 machines", with the tick when it is not etcd's ("at 1 ms
// ticks") and the fastest clock when one runs fast.
func runWords(cfg raftcore.Config, actions []raftcore.Action, untilUs int64) string {
	var b strings.Builder
	b.WriteString(lengthWords(untilUs))
	b.WriteString(" of " + strconv.Itoa(cfg.Nodes) + " machine")
	if cfg.Nodes != 1 {
		b.WriteString("s")
	}
	if cfg.TickMs != raftcore.DefaultConfig().TickMs {
		b.WriteString(" at " + strconv.Itoa(cfg.TickMs) + " ms ticks")
	}
	fastest := 1.0
	for _, a := range actions {
		if a.Do == raftcore.DoDrift && a.AtUs() < untilUs {
			fastest = max(fastest, a.Rate)
		}
	}
	if fastest > 1 {
		b.WriteString(", clocks running up to " + strconv.FormatFloat(fastest, 'g', -1, 64) + " times fast")
	}
	return b.String()
}

// lengthWords says a run's length as people do: "1 hour", "2 hours
// 30 minutes", "1 minute 5 seconds", "4.5 seconds", "250 ms".
func lengthWords(us int64) string {
	unit := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return strconv.FormatInt(n, 10) + " " + one + "s"
	}
	s := us / 1_000_000
	switch {
	case us < 1_000_000:
		return strconv.FormatFloat(float64(us)/1000, 'g', -1, 64) + " ms"
	case us == 1_000_000:
		return "1 second"
	case s < 60:
		return strconv.FormatFloat(float64(us)/1e6, 'g', -1, 64) + " seconds"
	case s < 3600 && s%60 == 0:
		return unit(s/60, "minute")
	case s < 3600:
		return unit(s/60, "minute") + " " + unit(s%60, "second")
	case s%3600/60 == 0:
		return unit(s/3600, "hour")
	}
	return unit(s/3600, "hour") + " " + unit(s%3600/60, "minute")
}

// thousands writes a count rounded to a whole number, with commas between
// the thousands: 32,400,000.
func thousands(v float64) string {
	digits := strconv.FormatFloat(v, 'f', 0, 64)
	var b strings.Builder
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

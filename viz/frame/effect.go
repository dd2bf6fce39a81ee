package frame

import "raftlab/viz"

// Theme names the palette.
type Theme string

// The themes.
const (
	ThemeLight Theme = "light"
	ThemeDark  Theme = "dark"
)

// EffectKind names something the app asks its host to do.
type EffectKind string

// Effects a host carries out.
const (
	// EffectCopy puts Text on the clipboard (or shows it for copying).
	EffectCopy EffectKind = "copy"
	// EffectSave offers Data as a file named Name.
	EffectSave EffectKind = "save"
	// EffectOpen asks the reader for a schedule file to import.
	EffectOpen EffectKind = "open"
	// EffectScreenshot saves the next drawn frame as a PNG named Name: as
	// the screen shows it, or, with Scale set, painted again at Scale
	// times its size, and only Region of it when Region is not empty.
	EffectScreenshot EffectKind = "screenshot"
	// EffectAnimate saves an animation as a GIF named Name: the frames the
	// model hands out one by one (see draw.Animator), Region of each.
	EffectAnimate EffectKind = "animate"
	// EffectVisit opens the address Text in a new tab or window.
	EffectVisit EffectKind = "visit"
	// EffectDescribe replaces the figure's description with Text.
	EffectDescribe EffectKind = "describe"
	// EffectAnnounce is one notable event, Text, to be announced.
	EffectAnnounce EffectKind = "announce"
	// EffectStep is the story's step shown now: Name is "N/M" (N counted
	// from 1; M+1 for the closing line) and Text its words.
	EffectStep EffectKind = "step"
)

// Effect is a request from the app to its host.
type Effect struct {
	Kind EffectKind
	Name string
	Text string
	Data []byte
	// Scale and Region shape a screenshot (EffectScreenshot).
	Scale  float64
	Region viz.Rect
}

// Stats count what the app did, for the page's frameStats().
type Stats struct {
	Updates     uint64 `json:"updates"`
	FrameBuilds uint64 `json:"frame_builds"`
	Draws       uint64 `json:"draws"`
	Skipped     uint64 `json:"skipped_draws"`
	Version     uint64 `json:"version"`
}

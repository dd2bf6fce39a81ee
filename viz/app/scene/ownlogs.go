package scene

import (
	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// A figure whose paragraph is about the machines' histories (UI.Focus is
// the logs: three notebooks, two worlds) draws them where another figure
// has its panel, in a card of their own: a heading, the rows as tall as
// a reader needs to read them, and a line under them saying what a
// square is. Each square then says which write it holds, in every
// protocol, and takes the colour of the machine the write was given to,
// so that two runs of the figure under two protocols can be compared
// square for square.

// ownLogs reports whether the logs are the figure's focus, drawn in a
// card of their own.
func (b *Builder) ownLogs() bool {
	return b.Figure() && b.scen().Spec().UI.Focus == scenarios.PanelLogs
}

// ownLogsKeyRow is the room between the card's heading and its rows: the
// index numbers over the columns, and the key to the marks.
const ownLogsKeyRow = SizeSmall + 9

// phoneLogRowH is how tall a row is in the card on a phone, where the
// machines above it need the room more.
const phoneLogRowH = 24.0

// ownLogsRows is the height of the machines' rows in their card.
func (b *Builder) ownLogsRows() float64 {
	n, rowH := b.World().Size(), viz.OwnLogRowH
	if b.Stage.Phone() {
		rowH = phoneLogRowH
	}
	return float64(n)*rowH + float64(n-1)*2
}

// ownLogsHeight is the height of the card of the logs, w wide.
func (b *Builder) ownLogsHeight(w float64) float64 {
	notes := len(b.wrap(b.ownLogsKey(), SizeSmall, w-2*panelPad))
	return panelHeader + ownLogsKeyRow + b.ownLogsRows() + 6 + float64(notes)*LineHeight(SizeSmall) + panelPad
}

// ownLogsRoom is where the rows go in card: under its heading and the
// index numbers, as tall as the card lets them be.
func (b *Builder) ownLogsRoom(card viz.Rect) viz.Rect {
	top := panelHeader + ownLogsKeyRow
	return viz.XYWH(card.X+panelPad, card.Y+top, card.W-2*panelPad, min(b.ownLogsRows(), card.H-top-panelPad/2))
}

// ownLogsTitle and ownLogsKey are the card's heading and the line under
// its rows: the story's words for them, or the app's.
func (b *Builder) ownLogsTitle() string {
	if t := b.scen().Spec().UI.LogsTitle; t != "" {
		return t
	}
	return words.Histories
}

func (b *Builder) ownLogsKey() string {
	if k := b.scen().Spec().UI.LogsKey; k != "" {
		return k
	}
	return words.HistoriesKey
}

// buildOwnLogsCard puts the card, its heading and the words under the
// rows around the log rows.
func (b *Builder) buildOwnLogsCard(L *frame.LogsView) {
	card := b.figureGeom().Panel
	card.H = min(card.H, b.ownLogsHeight(card.W))
	L.Card = card
	L.Title = frame.TextItem{Text: b.ownLogsTitle(), X: card.X + panelPad, Y: card.Y + 6, Size: SizeTitle, Tone: frame.ToneText, Bold: true}
	L.Notes = L.Notes[:0]
	lines := b.wrap(b.ownLogsKey(), SizeSmall, card.W-2*panelPad)
	y := L.Rect.Bottom() + 6
	if y+float64(len(lines))*LineHeight(SizeSmall) > card.Bottom()+0.5 {
		// Where the figure's words leave the card short (a long closing
		// line on a phone), the key gives way whole rather than be cut.
		return
	}
	for _, line := range lines {
		L.Notes = append(L.Notes, frame.TextItem{Text: line, X: card.X + panelPad, Y: y, Size: SizeSmall, Tone: frame.ToneMuted})
		y += LineHeight(SizeSmall)
	}
}

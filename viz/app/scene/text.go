package scene

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"raftlab/viz"
	"raftlab/viz/frame"
)

// estimateWidth guesses the width of s in a proportional sans-serif font,
// for tests and until the host supplies real measurements.
func estimateWidth(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * size * 0.55
}

// wrap breaks text into lines no wider than width at size, at spaces
// (a word longer than a line is broken inside). Newlines start new lines.
// A line's width is taken as the sum of its words and spaces, so each
// word is measured once.
func wrap(measure func(string, float64) float64, text string, size, width float64) []string {
	var out []string
	space := measure(" ", size)
	for len(text) > 0 || out == nil {
		para := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			para, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		out = wrapPara(out, measure, para, size, width, space)
	}
	return out
}

// wrapPara appends para's lines to out. Its words are its fields, as
// strings.Fields splits it; a line whose words stand one space apart in
// para is that stretch of para, not a copy of its words joined anew.
func wrapPara(out []string, measure func(string, float64) float64, para string, size, width, space float64) []string {
	var (
		// head is the line's first word when it is what is left of a word
		// cut (not a stretch of para); from and to are the stretch of para
		// holding the line's other words (from < 0: none), plain whether
		// they stand one space apart there.
		head     string
		hasHead  bool
		from, to = -1, -1
		plain    = true
		lineW    float64
		words    int
		found    bool
	)
	flush := func() {
		if words > 0 {
			out = append(out, lineText(para, head, hasHead, from, to, plain))
		}
		head, hasHead, from, to, plain, lineW, words = "", false, -1, -1, true, 0, 0
	}
	for i := 0; ; {
		s, e := nextField(para, i)
		if s == e {
			break
		}
		i, found = e, true
		w := para[s:e]
		ww := measure(w, size)
		if words > 0 && lineW+space+ww > width {
			flush()
		}
		// A word wider than the line: the line is empty then, and what is
		// left of the word once cut starts it.
		cut := ww > width && utf8.RuneCountInString(w) > 1
		if cut {
			out, w, ww = cutWord(out, measure, w, ww, size, width)
		}
		if words > 0 {
			lineW += space
		}
		switch {
		case cut:
			head, hasHead = w, true
		case from < 0:
			from, to = s, e
		default:
			plain = plain && s == to+1 && para[to] == ' '
			to = e
		}
		words++
		lineW += ww
	}
	if !found {
		return append(out, "")
	}
	flush()
	return out
}

// cutWord cuts word w (ww wide) where it overflows width, appending the
// pieces that fill a line to out, and returns what is left and its width.
func cutWord(out []string, measure func(string, float64) float64, w string, ww, size, width float64) ([]string, string, float64) {
	for ww > width && utf8.RuneCountInString(w) > 1 {
		r := []rune(w)
		k := len(r) - 1
		for k > 1 && measure(string(r[:k]), size) > width {
			k--
		}
		out = append(out, string(r[:k]))
		w = string(r[k:])
		ww = measure(w, size)
	}
	return out, w, ww
}

// lineText is a line of wrapPara's: head (when it has one), then the
// words of para[from:to] one space apart.
func lineText(para, head string, hasHead bool, from, to int, plain bool) string {
	rest := ""
	if from >= 0 {
		rest = para[from:to]
		if !plain {
			rest = strings.Join(strings.Fields(rest), " ")
		}
	}
	switch {
	case !hasHead:
		return rest
	case from < 0:
		return head
	}
	return head + " " + rest
}

// nextField is where the first field of para at or after i starts and
// ends, fields being what strings.Fields splits para into (runs of
// characters that are not unicode.IsSpace); s == e when none is left.
func nextField(para string, i int) (s, e int) {
	for i < len(para) {
		sp, n := spaceAt(para, i)
		if !sp {
			break
		}
		i += n
	}
	s = i
	for i < len(para) {
		sp, n := spaceAt(para, i)
		if sp {
			break
		}
		i += n
	}
	return s, i
}

// spaceAt reports whether the character at s[i] is a space
// (unicode.IsSpace), and its length in bytes.
func spaceAt(s string, i int) (bool, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r', 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return unicode.IsSpace(r), n
}

type wrapKey struct {
	s           string
	size, width float64
}

// textCache remembers text widths and wrapped paragraphs: the same labels
// are measured, and the same paragraphs wrapped, frame after frame.
type textCache struct {
	f     func(string, float64) float64
	m     map[measureKey]float64
	wraps map[wrapKey][]string
}

type measureKey struct {
	s    string
	size float64
}

func newTextCache(f func(string, float64) float64) *textCache {
	return &textCache{f: f, m: map[measureKey]float64{}, wraps: map[wrapKey][]string{}}
}

func (c *textCache) measure(s string, size float64) float64 {
	k := measureKey{s, size}
	if w, ok := c.m[k]; ok {
		return w
	}
	if len(c.m) > 8192 {
		clear(c.m)
	}
	w := c.f(s, size)
	c.m[k] = w
	return w
}

// wrap is wrap with the cache's measure, remembered. Callers must not
// change the lines.
func (c *textCache) wrap(s string, size, width float64) []string {
	k := wrapKey{s, size, width}
	if l, ok := c.wraps[k]; ok {
		return l
	}
	if len(c.wraps) > 4096 {
		clear(c.wraps)
	}
	l := wrap(c.measure, s, size, width)
	c.wraps[k] = l
	return l
}

// wrap breaks s into lines no wider than width at size (see wrap).
func (b *Builder) wrap(s string, size, width float64) []string { return b.text.wrap(s, size, width) }

// writer lays out text and controls top to bottom in a column, for panels,
// menus and overlays.
type writer struct {
	b       *Builder
	x, y, w float64
	top     float64
	lines   []frame.TextItem
	widgets []frame.Widget
	rows    []frame.MenuRow
	diagram *frame.DiagramView
	gauges  []frame.Gauge
	// paras are where each paragraph starts among lines: a still picture
	// that has no room for all of them keeps whole paragraphs only.
	paras []int
	// compact asks for a panel's short form, where the long one would not
	// fit (the contract and the node Leases have one).
	compact bool
}

func (b *Builder) newWriter(x, y, w float64) *writer {
	return &writer{b: b, x: x, y: y, w: w, top: y}
}

// text writes a wrapped paragraph.
func (wr *writer) text(s string, size float64, tone frame.Tone, bold bool) {
	wr.indent(s, size, tone, bold, 0)
}

// indent writes a wrapped paragraph shifted right by in.
func (wr *writer) indent(s string, size float64, tone frame.Tone, bold bool, in float64) {
	wr.paras = append(wr.paras, len(wr.lines))
	lh := LineHeight(size)
	for _, l := range wr.b.wrap(s, size, wr.w-in) {
		wr.lines = append(wr.lines, frame.TextItem{Text: l, X: wr.x + in, Y: wr.y, Size: size, Tone: tone, Bold: bold})
		wr.y += lh
	}
}

// item writes a line with a coloured mark (✓, ✗, •) hanging left of it.
func (wr *writer) item(mark string, markTone frame.Tone, s string, size float64, tone frame.Tone) {
	in := wr.b.Measure("✓ ", size) + 2
	start := len(wr.lines)
	wr.lines = append(wr.lines, frame.TextItem{Text: mark, X: wr.x, Y: wr.y, Size: size, Tone: markTone, Bold: true})
	wr.indent(s, size, tone, false, in)
	wr.paras[len(wr.paras)-1] = start // the mark begins the paragraph
}

func (wr *writer) gap(h float64) { wr.y += h }

// controlHeight is the height of a button row: larger for fingers.
func (b *Builder) controlHeight() float64 {
	if b.Stage.Touch() {
		return 34
	}
	return 26
}

// widgetWidth is the width of a labelled control.
func (b *Builder) widgetWidth(label string, size float64) float64 {
	return b.Measure(label, size) + 18
}

// buttons writes controls left to right, wrapping to new lines, starting
// at in from the left edge.
func (wr *writer) buttons(in float64, ws ...frame.Widget) []frame.Widget {
	h := wr.b.controlHeight()
	x := wr.x + in
	start := len(wr.widgets)
	for _, w := range ws {
		if w.Size == 0 {
			w.Size = SizeSmall + 1
		}
		bw := wr.b.widgetWidth(w.Label, w.Size)
		if x+bw > wr.x+wr.w && x > wr.x+in {
			x = wr.x + in
			wr.y += h + min(wr.b.rowGap(), 4)
		}
		w.Rect = viz.XYWH(x, wr.y, min(bw, wr.w-in), h)
		wr.widgets = append(wr.widgets, w)
		x += bw + 4
	}
	wr.y += h + wr.b.rowGap()
	return wr.widgets[start:]
}

// rowGap is the space under a row of controls: less on a short canvas,
// where the setup menu, with the list of figures, must still fit a
// 450-pixel figure.
func (b *Builder) rowGap() float64 {
	if b.Stage.H() < 500 {
		return 3
	}
	return 6
}

// row writes a labelled row of controls: the label on the left, the
// controls after it (or below it when the label is wide).
func (wr *writer) row(label string, labelW float64, ws ...frame.Widget) {
	h := wr.b.controlHeight()
	if label != "" {
		wr.paras = append(wr.paras, len(wr.lines))
		wr.lines = append(wr.lines, frame.TextItem{Text: label, X: wr.x, Y: wr.y + (h-SizeSmall)/2 - 1, Size: SizeSmall, Tone: frame.ToneMuted})
	}
	before := len(wr.widgets)
	wr.buttons(labelW, ws...)
	wr.rows = append(wr.rows, frame.MenuRow{Widgets: wr.widgets[before:]})
}

// height is how far the writer has come.
func (wr *writer) height() float64 { return wr.y - wr.top }

func LineHeight(size float64) float64 { return size*1.35 + 1 }

// onOff is a command line ending in on or off.
func onOff(line string, on bool) string {
	if on {
		return line + " on"
	}
	return line + " off"
}

// button is a labelled button named id that runs command line do.
func button(id, label, do string) frame.Widget {
	return frame.Widget{ID: id, Kind: frame.WidgetButton, Label: label, Enabled: true, Do: do}
}

// chip is one of a set of choices, named id, that runs command line do;
// on marks the current one.
func chip(id, label string, on bool, do string) frame.Widget {
	return frame.Widget{ID: id, Kind: frame.WidgetChip, Label: label, On: on, Enabled: true, Do: do}
}

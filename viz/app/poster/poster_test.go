package poster

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/scenarios"
	"raftlab/viz/fonts"
	"raftlab/viz/frame"
	"raftlab/viz/palette"
)

// committed is where `make posters` writes the posters.
const committed = "../../../web/posters"

// TestPostersAreCurrent: every figure has both posters committed in
// every theme, each byte for byte what the code draws now, and nothing
// else is there.
func TestPostersAreCurrent(t *testing.T) {
	want := map[string]bool{}
	for _, p := range All() {
		name := p.FileName()
		want[name] = true
		got, err := p.SVG()
		require.NoError(t, err)
		old, err := os.ReadFile(filepath.Join(committed, name))
		if !assert.NoError(t, err, "figure %s has no %s poster: run make posters", p.ID, name) {
			continue
		}
		assert.True(t, string(old) == string(got), "web/posters/%s is not what the code draws now: run make posters", name)
	}
	files, err := filepath.Glob(filepath.Join(committed, "*.svg"))
	require.NoError(t, err)
	var extra []string
	for _, f := range files {
		if !want[filepath.Base(f)] {
			extra = append(extra, filepath.Base(f))
		}
	}
	sort.Strings(extra)
	assert.Empty(t, extra, "posters of no figure in web/posters: run make posters")
	manifest, err := Manifest()
	require.NoError(t, err)
	old, err := os.ReadFile(filepath.Join(committed, ManifestName))
	require.NoError(t, err, "no %s beside the posters: run make posters", ManifestName)
	assert.Equal(t, string(manifest), string(old), "web/posters/%s is not what the code writes now: run make posters", ManifestName)
}

// TestKeyMomentIsTheLastStep: the key poster shows the story's last step,
// the opening poster its first, and they differ.
func TestKeyMomentIsTheLastStep(t *testing.T) {
	for _, id := range []string{"majority", "two-leaders"} {
		open, err := Poster{id, Opening, "light", Column}.Frame()
		require.NoError(t, err)
		key, err := Poster{id, Key, "light", Column}.Frame()
		require.NoError(t, err)
		require.NotNil(t, open.Caption)
		require.NotNil(t, key.Caption)
		a, _ := Poster{id, Opening, "light", Column}.SVG()
		b, _ := Poster{id, Key, "light", Column}.SVG()
		assert.NotEqual(t, string(a), string(b), "%s: the opening and the key moment look the same", id)
		assert.Contains(t, string(a), "Step 1 of", "%s: the opening is not the first step", id)
		assert.NotContains(t, string(b), "Step 1 of", "%s: the key moment is the first step", id)
	}
}

// TestDarkPosterIsTheSameFrameInDarkColours: the dark poster is the light
// one's frame (the same words in the same places) painted with the dark
// palette: its background is the dark theme's, the light one's is absent,
// and the files are named as embed.js asks for them.
func TestDarkPosterIsTheSameFrameInDarkColours(t *testing.T) {
	assert.Equal(t, "majority-key.svg", Poster{"majority", Key, "light", Column}.FileName())
	assert.Equal(t, "majority-key-dark.svg", Poster{"majority", Key, "dark", Column}.FileName())
	assert.Equal(t, "majority-open-phone-dark.svg", Poster{"majority", Opening, "dark", Phone}.FileName())
	for _, m := range Moments {
		light, err := Poster{"majority", m, "light", Column}.Frame()
		require.NoError(t, err)
		dark, err := Poster{"majority", m, "dark", Column}.Frame()
		require.NoError(t, err)
		dark.Theme = light.Theme
		assert.Equal(t, light, dark, "%s: the dark frame differs from the light one in more than its theme", m)

		lightSVG, err := Poster{"majority", m, "light", Column}.SVG()
		require.NoError(t, err)
		darkSVG, err := Poster{"majority", m, "dark", Column}.SVG()
		require.NoError(t, err)
		bg := func(c uint32) string { return fmt.Sprintf("#%06x", c) }
		assert.Contains(t, string(darkSVG), bg(palette.Dark().BG), "%s: no dark background", m)
		assert.NotContains(t, string(darkSVG), bg(palette.Light().BG), "%s: the light background in the dark poster", m)
		assert.Contains(t, string(lightSVG), bg(palette.Light().BG), "%s: no light background", m)
	}
	_, err := Poster{"majority", Key, "sepia", Column}.SVG()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"sepia"`)
}

// TestSamePosterTwice: making a poster twice gives the same bytes.
func TestSamePosterTwice(t *testing.T) {
	a, err := Poster{"two-worlds", Key, "light", Phone}.SVG()
	require.NoError(t, err)
	b, err := Poster{"two-worlds", Key, "light", Phone}.SVG()
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

// TestBadFigureOrMoment: an unknown figure or moment is an error that
// names it.
func TestBadFigureOrMoment(t *testing.T) {
	_, err := Poster{"no-such-figure", Key, "light", Column}.SVG()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no-such-figure")
	_, err = Poster{"majority", Moment("middle"), "light", Column}.SVG()
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), `"middle"`), err.Error())
}

// BenchmarkPoster is the time to make one poster: open the figure, play
// it to its key moment and paint the SVG.
func BenchmarkPoster(b *testing.B) {
	for _, m := range Moments {
		b.Run(string(m), func(b *testing.B) {
			for b.Loop() {
				if _, err := (Poster{"majority", m, "light", Column}).SVG(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPostersAskNothingOfPaper: a poster (and so the page in print) shows
// nothing a reader could only press or scroll: no "more below", no knob
// chips, no line of a panel cut by its bottom edge; each knob says its
// setting in words instead.
func TestPostersAskNothingOfPaper(t *testing.T) {
	everyLightPoster(t, func(id, where string, f *frame.Frame) {
		for _, pv := range f.Panels {
			require.False(t, pv.More, "%s: panel %v says there is more below", where, pv.Kind)
			for _, l := range pv.Lines {
				require.LessOrEqual(t, l.Y+l.Size*1.2, pv.Clip.Bottom()+0.5, "%s: %q is cut by the bottom of panel %v", where, l.Text, pv.Kind)
			}
			for _, w := range pv.Widgets {
				require.NotEqual(t, frame.WidgetChip, w.Kind, "%s: panel %v offers chip %q", where, pv.Kind, w.Label)
			}
		}
		if c := f.Caption; c != nil {
			for _, l := range c.Lines {
				require.LessOrEqual(t, l.Y+l.Size*1.2, c.Rect.Bottom()+0.5, "%s: %q is cut by the bottom of the figure's words", where, l.Text)
			}
			for _, row := range c.Rows {
				for _, w := range row.Widgets {
					require.NotEqual(t, frame.WidgetChip, w.Kind, "%s: the figure's words offer chip %q", where, w.Label)
				}
			}
		}
		s, err := scenarios.Get(id)
		require.NoError(t, err)
		text := strings.Join(captionText(f), " ")
		for _, k := range s.Knobs {
			if !k.Lab {
				require.Contains(t, text, k.Label+": ", "%s: knob %q does not say its setting", where, k.Label)
			}
		}
	})
}

func captionText(f *frame.Frame) []string {
	var out []string
	if f.Caption != nil {
		for _, l := range f.Caption.Lines {
			out = append(out, l.Text)
		}
	}
	return out
}

// TestNothingCutAtTheEdges: on every poster, at a column's size and a
// phone's, each machine's outermost ring (a selected or highlighted one,
// 12 px out of its disc) and each tag over it lie inside the picture.
func TestNothingCutAtTheEdges(t *testing.T) {
	everyLightPoster(t, func(id, where string, f *frame.Frame) {
		for _, n := range f.Nodes {
			reach := n.R + 11.5
			require.True(t, n.Center.X-reach >= 0 && n.Center.X+reach <= f.W && n.Center.Y-reach >= 0 && n.Center.Y+reach <= f.H,
				"%s: machine %d's ring is cut by the picture's edge (centre %v, reach %.1f, picture %vx%v)", where, n.Index+1, n.Center, reach, f.W, f.H)
			for _, b := range n.Badges {
				half := fonts.Measure(b.Text, b.Size)/2 + 4
				require.True(t, b.X-half >= 0 && b.X+half <= f.W, "%s: tag %q is cut by the picture's edge", where, b.Text)
			}
		}
	})
}

// everyLightPoster calls check with the frame of every figure's poster in
// the light theme, at every moment and size, and where it is in words.
func everyLightPoster(t *testing.T, check func(id, where string, f *frame.Frame)) {
	for _, id := range IDs() {
		for _, m := range Moments {
			for _, size := range Sizes {
				f, err := Poster{id, m, "light", size}.Frame()
				require.NoError(t, err)
				check(id, fmt.Sprintf("%s %s %s", id, m, size.Name), f)
			}
		}
	}
}

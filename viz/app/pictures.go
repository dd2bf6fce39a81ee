package app

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math"
	"strings"
	"time"

	"raftlab/raftcore/timeline"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/frame"
	"raftlab/viz/svg"
	"raftlab/viz/words"
)

// Pictures for slides: the whole frame, the stage or one panel, as a PNG
// at twice the size (painted again by the host, see frame.Effect) or as an
// SVG (painted here, by the posters' painter), and the stage over the
// last seconds of virtual time as SVG frames in a zip file.

// pictureScale is how much larger than on screen a PNG for a slide is.
const pictureScale = 2

// framesPerSecond is how many frames an animation has per second of
// virtual time.
const framesPerSecond = 20

// savePicture saves what save-picture asks for.
func (a *App) savePicture(in command.SavePicture) error {
	a.view.CloseMenu()
	if in.Part.Kind == "" {
		a.effects = append(a.effects, frame.Effect{Kind: frame.EffectScreenshot, Name: "raftlab.png"})
		return nil
	}
	// The picture is of the frame without the menu, and without the
	// hover text the pointer left over the button that asked for it.
	a.view.SetHover(viz.Point{}, false)
	a.changed()
	f := a.Frame()
	region, name, err := a.pictureRegion(f, in.Part)
	if err != nil {
		return err
	}
	if in.Format == "svg" {
		data := svg.Paint(f, svg.Options{Title: "raftlab", Region: region})
		a.effects = append(a.effects, frame.Effect{Kind: frame.EffectSave, Name: name + ".svg", Data: data})
		return nil
	}
	a.effects = append(a.effects, frame.Effect{Kind: frame.EffectScreenshot, Name: name + ".png", Scale: pictureScale, Region: region})
	return nil
}

// pictureRegion is the part of frame f a picture shows (empty: all of
// it) and the file's name without its extension.
func (a *App) pictureRegion(f *frame.Frame, part command.PicturePart) (viz.Rect, string, error) {
	switch part.Kind {
	case "all":
		return viz.Rect{}, "raftlab", nil
	case "stage":
		return a.stageRegion(f), "raftlab-stage", nil
	}
	for _, p := range f.Panels {
		if p.Kind == part.Panel && !p.Rect.Empty() && !p.Folded {
			return p.Rect, "raftlab-" + strings.ToLower(part.Panel.Title()), nil
		}
	}
	return viz.Rect{}, "", fmt.Errorf("the %s panel is not on screen: bring it to the front first", part.Panel.Title())
}

// stageRegion is the machines and their logs, with the logs' header
// over them, a little room around.
func (a *App) stageRegion(f *frame.Frame) viz.Rect {
	lay := a.stage.Layout()
	r := lay.Cluster
	if !lay.Logs.Empty() {
		logs := lay.Logs
		head := 22.0 // the index numbers and the key's button over the rows
		logs.Y -= head
		logs.H += head
		r = union(r, logs)
	}
	// The marks under the last log row reach a few pixels below it.
	const pad = 6
	x0, y0 := math.Max(r.X-pad, 0), math.Max(r.Y-pad, 0)
	return viz.XYWH(x0, y0, math.Min(r.Right()+pad, f.W)-x0, math.Min(r.Bottom()+pad, f.H)-y0)
}

func union(a, b viz.Rect) viz.Rect {
	if a.Empty() {
		return b
	}
	x0, y0 := math.Min(a.X, b.X), math.Min(a.Y, b.Y)
	return viz.XYWH(x0, y0, math.Max(a.Right(), b.Right())-x0, math.Max(a.Bottom(), b.Bottom())-y0)
}

// animation is the moments of an animation of the stage: the virtual
// times of its frames, and the moment to come back to once they are made.
type animation struct {
	here  timeline.Position
	times []int64
}

// newAnimation is the animation of the last seconds up to the moment
// shown, framesPerSecond frames a second of virtual time.
func (a *App) newAnimation(seconds float64) *animation {
	here := a.session.Timeline().Pos()
	an := &animation{here: here}
	start := max(here.AtUs-int64(seconds*1e6), 0)
	for t := start; t < here.AtUs; t += int64(1e6 / framesPerSecond) {
		an.times = append(an.times, t)
	}
	an.times = append(an.times, here.AtUs)
	return an
}

// frameOf shows moment i of an and returns its frame, a copy: the moments
// are the past only while the frames are made, so no frame says it
// replays the past, nor carries the note of now.
func (a *App) frameOf(an *animation, i int) frame.Frame {
	tl := a.session.Timeline()
	if i == len(an.times)-1 {
		tl.SeekTo(an.here)
	} else {
		tl.SeekTime(an.times[i])
	}
	a.changed()
	f := *a.Frame()
	f.Replay, f.Banner = nil, nil
	return f
}

// endAnimation shows the moment the animation was made at again.
func (a *App) endAnimation(an *animation) {
	a.session.Timeline().SeekTo(an.here)
	a.changed()
}

// frameDelay is how long a frame of an animation shows: the speed the
// reader watched the run at.
func (a *App) frameDelay() time.Duration {
	return time.Duration(float64(time.Second) / (framesPerSecond * a.clock.Speed()))
}

// saveFrames saves the stage over the last seconds of virtual time up to
// the moment shown: as an SVG a frame in a zip file, with a page that
// plays them, or, asked for a GIF, as an animation the host paints frame
// by frame (AnimationFrame). The SVG pictures leave the font out (the
// viewer's sans-serif, set to the same widths): one font a frame would
// make the file many times larger.
func (a *App) saveFrames(in command.SaveFrames) error {
	a.view.CloseMenu()
	a.view.SetHover(viz.Point{}, false)
	an := a.newAnimation(in.Seconds)
	if in.GIF {
		a.changed()
		a.anim = an
		a.effects = append(a.effects, frame.Effect{Kind: frame.EffectAnimate, Name: "raftlab-stage.gif", Region: a.stageRegion(a.Frame())})
		return nil
	}
	defer a.endAnimation(an)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := range an.times {
		f := a.frameOf(an, i)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("raftlab-frame-%03d.svg", i), Method: zip.Deflate})
		if err == nil {
			_, err = w.Write(svg.Paint(&f, svg.Options{Region: a.stageRegion(&f), NoFont: true}))
		}
		if err != nil {
			return err
		}
	}
	// A page beside the frames plays them at the speed the reader
	// watched the run.
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "raftlab-frames.html", Method: zip.Deflate})
	if err == nil {
		_, err = fmt.Fprintf(w, words.FramesPage, len(an.times), float64(a.frameDelay())/float64(time.Millisecond))
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		return err
	}
	a.effects = append(a.effects, frame.Effect{Kind: frame.EffectSave, Name: "raftlab-frames.zip", Data: buf.Bytes()})
	return nil
}

// AnimationFrame is frame i of the animation save-frames asked the host to
// paint as a GIF, and how long it shows; false past the last one, which
// ends the animation and shows the run where it was.
func (a *App) AnimationFrame(i int) (*frame.Frame, time.Duration, bool) {
	an := a.anim
	if an == nil || i < 0 {
		return nil, 0, false
	}
	if i >= len(an.times) {
		a.anim = nil
		a.endAnimation(an)
		return nil, 0, false
	}
	f := a.frameOf(an, i)
	return &f, a.frameDelay(), true
}

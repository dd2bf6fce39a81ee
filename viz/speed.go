package viz

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
)

// The speed range: virtual seconds per real second.
const (
	MinSpeed = 0.01
	MaxSpeed = 10.0
)

// DefaultSpeed is the speed when the reader chose none: a tenth of real
// time, so that a message takes a few tenths of a second to cross and an
// election can be followed by eye.
const DefaultSpeed = 0.1

// FigureSpeed is a figure's speed when the page chose none: real time,
// so that a step takes a few seconds and can be followed by eye.
const FigureSpeed = 1.0

// SpeedGiven reports whether parameters (key=value, as a query's parts,
// or the desktop's arguments, where "-speed 2" works too) choose a speed the app can take: the last speed
// given is a number within the range. A bad one is reported as a problem
// and the app starts at its default, as if none were given.
func SpeedGiven(parts []string) bool {
	given := false
	for i, p := range parts {
		k, v, has := strings.Cut(strings.TrimLeft(p, "-?&"), "=")
		if !has && i+1 < len(parts) && !strings.HasPrefix(parts[i+1], "-") && !strings.Contains(parts[i+1], "=") {
			v = parts[i+1] // "-speed 2", as ParseArgs reads it
		}
		if u, err := url.QueryUnescape(k); err == nil {
			k = u
		}
		if plainKey(k) == "speed" {
			if u, err := url.QueryUnescape(v); err == nil {
				v = u
			}
			s, err := ParseSpeed(strings.TrimSpace(v))
			given = err == nil && s >= MinSpeed && s <= MaxSpeed
		}
	}
	return given
}

var niceSpeeds = []float64{0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10}

// NiceSpeeds returns the speeds the slider snaps to, slowest first.
func NiceSpeeds() []float64 { return append([]float64(nil), niceSpeeds...) }

// SpeedAt maps a slider position in [0, 1] onto a speed on a log scale:
// 0 is MinSpeed, 1 is MaxSpeed and 2/3 is 1x. Positions outside [0, 1] are
// clamped; NaN counts as 1x.
func SpeedAt(x float64) float64 {
	if math.IsNaN(x) {
		return 1
	}
	lo, hi := math.Log10(MinSpeed), math.Log10(MaxSpeed)
	return clamp(math.Pow(10, lo+clamp(x, 0, 1)*(hi-lo)), MinSpeed, MaxSpeed)
}

// SliderPos is the inverse of SpeedAt: the slider position in [0, 1] of a
// speed. Speeds outside the range are clamped; NaN counts as 1x.
func SliderPos(speed float64) float64 {
	if math.IsNaN(speed) {
		speed = 1
	}
	lo, hi := math.Log10(MinSpeed), math.Log10(MaxSpeed)
	return clamp((math.Log10(clamp(speed, MinSpeed, MaxSpeed))-lo)/(hi-lo), 0, 1)
}

// SnapSpeed returns the nice speed nearest to speed on the log scale.
func SnapSpeed(speed float64) float64 {
	if math.IsNaN(speed) {
		return 1
	}
	l := math.Log10(clamp(speed, MinSpeed, MaxSpeed))
	best := niceSpeeds[0]
	for _, s := range niceSpeeds[1:] {
		if math.Abs(math.Log10(s)-l) < math.Abs(math.Log10(best)-l) {
			best = s
		}
	}
	return best
}

// SliderSpeed is the speed a slider at position x selects: SpeedAt snapped
// to the nearest nice speed.
func SliderSpeed(x float64) float64 { return SnapSpeed(SpeedAt(x)) }

// StepSpeed moves steps nice speeds faster (steps > 0) or slower from the
// nice speed nearest to speed, stopping at the ends of the range.
func StepSpeed(speed float64, steps int) float64 {
	snapped := SnapSpeed(speed)
	i := 0
	for niceSpeeds[i] != snapped {
		i++
	}
	i += steps
	switch {
	case i < 0:
		i = 0
	case i >= len(niceSpeeds):
		i = len(niceSpeeds) - 1
	}
	return niceSpeeds[i]
}

// FormatSpeed labels a speed for the slider: "1x", "2x", "1.5x" at or above
// real time and "1/10x", "1/50x" below it when the speed is one over a whole
// number, else a short decimal such as "0.3x".
func FormatSpeed(speed float64) string {
	if speed >= 1 || speed <= 0 || math.IsNaN(speed) || math.IsInf(speed, 0) {
		return strconv.FormatFloat(speed, 'g', 3, 64) + "x"
	}
	inv := 1 / speed
	if r := math.Round(inv); math.Abs(inv-r) <= 1e-9*inv {
		return "1/" + strconv.FormatFloat(r, 'f', 0, 64) + "x"
	}
	return strconv.FormatFloat(speed, 'g', 3, 64) + "x"
}

// ParseSpeed reads a speed written as a plain number ("0.5", "2"), with a
// trailing x ("2x") or as a fraction ("1/10", "1/10x"), as FormatSpeed
// writes it. It does not check the range; it rejects NaN, infinities and
// anything not above zero.
func ParseSpeed(s string) (float64, error) {
	t := strings.TrimSpace(s)
	t = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(t, "x"), "X"), "×")
	var v float64
	if num, den, ok := strings.Cut(t, "/"); ok {
		n, err1 := strconv.ParseFloat(strings.TrimSpace(num), 64)
		d, err2 := strconv.ParseFloat(strings.TrimSpace(den), 64)
		if err1 != nil || err2 != nil || d == 0 {
			return 0, fmt.Errorf("speed %q is not a number or fraction", s)
		}
		v = n / d
	} else {
		f, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return 0, fmt.Errorf("speed %q is not a number or fraction", s)
		}
		v = f
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return 0, fmt.Errorf("speed %q is not a positive number", s)
	}
	return v, nil
}

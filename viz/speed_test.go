package viz

import (
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestSpeedScale(t *testing.T) {
	tests := []struct{ x, speed float64 }{
		{0, 0.01}, {1.0 / 3, 0.1}, {2.0 / 3, 1}, {1, 10},
		{-1, 0.01}, {2, 10}, {math.NaN(), 1},
	}
	for _, tc := range tests {
		if got := SpeedAt(tc.x); !near(got, tc.speed, 1e-12) {
			t.Errorf("SpeedAt(%v) = %v, want %v", tc.x, got, tc.speed)
		}
	}
	inverse := []struct{ speed, x float64 }{
		{0.01, 0}, {0.1, 1.0 / 3}, {1, 2.0 / 3}, {10, 1},
		{0.001, 0}, {100, 1}, {-5, 0}, {math.NaN(), 2.0 / 3}, {math.Inf(1), 1},
	}
	for _, tc := range inverse {
		if got := SliderPos(tc.speed); !near(got, tc.x, 1e-12) {
			t.Errorf("SliderPos(%v) = %v, want %v", tc.speed, got, tc.x)
		}
	}
}

func TestSnapSpeed(t *testing.T) {
	tests := []struct{ in, want float64 }{
		{1, 1}, {1.2, 1}, {1.5, 2}, {3, 2}, {3.3, 5}, {7, 5}, {8, 10}, {50, 10},
		{0.013, 0.01}, {0.015, 0.02}, {0.3, 0.2}, {0.35, 0.5}, {0.0001, 0.01},
		{math.NaN(), 1}, {-1, 0.01},
	}
	for _, tc := range tests {
		if got := SnapSpeed(tc.in); got != tc.want {
			t.Errorf("SnapSpeed(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
	// Every nice speed is reachable on the slider and snaps to itself.
	for _, s := range NiceSpeeds() {
		if got := SliderSpeed(SliderPos(s)); got != s {
			t.Errorf("slider at SliderPos(%v) selects %v", s, got)
		}
	}
}

func TestStepSpeed(t *testing.T) {
	tests := []struct {
		in    float64
		steps int
		want  float64
	}{
		{1, 1, 2}, {1, -1, 0.5}, {1, 3, 10}, {1, 99, 10}, {1, -99, 0.01},
		{0.3, 1, 0.5}, {10, 1, 10}, {0.01, -1, 0.01}, {2, 0, 2},
	}
	for _, tc := range tests {
		if got := StepSpeed(tc.in, tc.steps); got != tc.want {
			t.Errorf("StepSpeed(%v, %d) = %v, want %v", tc.in, tc.steps, got, tc.want)
		}
	}
}

func TestFormatSpeed(t *testing.T) {
	tests := []struct {
		speed float64
		want  string
	}{
		{1, "1x"}, {2, "2x"}, {5, "5x"}, {10, "10x"}, {1.5, "1.5x"},
		{0.5, "1/2x"}, {0.2, "1/5x"}, {0.1, "1/10x"}, {0.05, "1/20x"},
		{0.02, "1/50x"}, {0.01, "1/100x"}, {0.25, "1/4x"}, {0.3, "0.3x"},
		{0.013, "0.013x"},
	}
	for _, tc := range tests {
		if got := FormatSpeed(tc.speed); got != tc.want {
			t.Errorf("FormatSpeed(%v) = %q, want %q", tc.speed, got, tc.want)
		}
	}
}

func TestParseSpeed(t *testing.T) {
	good := []struct {
		in   string
		want float64
	}{
		{"1", 1}, {"2x", 2}, {"2X", 2}, {"0.5", 0.5}, {"1/10", 0.1}, {"1/10x", 0.1},
		{" 1 / 4 x", 0.25}, {"1.5×", 1.5}, {"100", 100},
	}
	for _, tc := range good {
		got, err := ParseSpeed(tc.in)
		if err != nil || !near(got, tc.want, 1e-15) {
			t.Errorf("ParseSpeed(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", "x", "fast", "1/0", "0", "-2", "NaN", "Inf", "1/x", "1/2/3", "2xx"} {
		if got, err := ParseSpeed(in); err == nil {
			t.Errorf("ParseSpeed(%q) = %v, want an error", in, got)
		}
	}
	// Every nice speed's label reads back as that speed.
	for _, s := range NiceSpeeds() {
		if got, err := ParseSpeed(FormatSpeed(s)); err != nil || !near(got, s, 1e-15) {
			t.Errorf("ParseSpeed(FormatSpeed(%v)) = %v, %v", s, got, err)
		}
	}
}

func FuzzSpeedSlider(f *testing.F) {
	f.Add(0.0, 0.5)
	f.Add(0.66, 0.67)
	f.Add(1.0, -3.0)
	f.Fuzz(func(t *testing.T, x, y float64) {
		sx, sy := SpeedAt(x), SpeedAt(y)
		if !(sx >= MinSpeed && sx <= MaxSpeed) {
			t.Fatalf("SpeedAt(%v) = %v out of range", x, sx)
		}
		snapped := SliderSpeed(x)
		if SnapSpeed(snapped) != snapped || snapped < MinSpeed || snapped > MaxSpeed {
			t.Fatalf("SliderSpeed(%v) = %v is not a nice speed", x, snapped)
		}
		// The slider never runs backwards.
		if x < y && (sx > sy || snapped > SliderSpeed(y)) {
			t.Fatalf("speed falls from x=%v to y=%v", x, y)
		}
		if !math.IsNaN(x) && x >= 0 && x <= 1 {
			if back := SliderPos(sx); !near(back, x, 1e-9) {
				t.Fatalf("SliderPos(SpeedAt(%v)) = %v", x, back)
			}
			// A label reads back to within its three significant digits.
			got, err := ParseSpeed(FormatSpeed(sx))
			if err != nil || math.Abs(got-sx) > 0.005*sx {
				t.Fatalf("ParseSpeed(FormatSpeed(%v)) = %v, %v", sx, got, err)
			}
		}
	})
}

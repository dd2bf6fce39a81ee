package frame

import (
	"reflect"
	"testing"

	"raftlab/viz"
)

// TestDiagramMovedShiftsEveryText: a diagram laid out in a panel is moved
// to where the panel scrolls it, and every piece of text in it moves with
// it. Each TextItem field of a box, an arrow and the diagram is filled in
// (by reflection, so a field added later is covered) and must come out
// shifted by exactly dx, dy.
func TestDiagramMovedShiftsEveryText(t *testing.T) {
	d := &DiagramView{Boxes: []DiagramBox{{Rect: viz.XYWH(1, 2, 3, 4)}}, Arrows: []DiagramArrow{{Path: []viz.Point{{X: 1, Y: 1}}}}}
	texts := func(d *DiagramView) []*TextItem {
		var out []*TextItem
		var walk func(v reflect.Value)
		walk = func(v reflect.Value) {
			switch v.Kind() {
			case reflect.Pointer:
				walk(v.Elem())
			case reflect.Slice:
				for i := range v.Len() {
					walk(v.Index(i))
				}
			case reflect.Struct:
				if t, ok := v.Addr().Interface().(*TextItem); ok {
					out = append(out, t)
					return
				}
				for i := range v.NumField() {
					walk(v.Field(i))
				}
			}
		}
		walk(reflect.ValueOf(d))
		return out
	}
	before := texts(d)
	if len(before) < 5 {
		t.Fatalf("found only %d texts", len(before))
	}
	for i, tx := range before {
		tx.Text, tx.X, tx.Y = "t", float64(10*i), float64(20*i)
	}
	after := texts(d.Moved(5, 7))
	if len(after) != len(before) {
		t.Fatalf("%d texts after moving, %d before", len(after), len(before))
	}
	for i := range after {
		if after[i].X != before[i].X+5 || after[i].Y != before[i].Y+7 {
			t.Errorf("text %d at %v,%v after moving by 5,7 from %v,%v", i, after[i].X, after[i].Y, before[i].X, before[i].Y)
		}
	}
}

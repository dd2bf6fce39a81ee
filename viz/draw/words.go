package draw

// zeroDigits writes s into buf with every ASCII digit replaced by '0' and
// says whether s had any digit.
func zeroDigits(buf []byte, s string) ([]byte, bool) {
	buf = append(buf[:0], s...)
	any := false
	for i, b := range buf {
		if b >= '1' && b <= '9' {
			buf[i] = '0'
			any = true
		} else if b == '0' {
			any = true
		}
	}
	return buf, any
}

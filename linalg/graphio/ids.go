package graphio

import "strconv"

// atoiStrict reads a decimal integer of an edge list (a node id, the
// header's node count) strictly: ASCII digits only. strconv.Atoi also
// takes a leading '+' ("+1"), which no writer of edge lists emits, so a
// file holding one is malformed, not read as 1. A '-' followed by digits
// is out of range for a count or an id (both are ≥ 0): it returns
// strconv.ErrRange, which the decoder reports as a negative id. Any other
// byte is strconv.ErrSyntax.
func atoiStrict(s string) (int, error) {
	digits := s
	if len(s) > 1 && s[0] == '-' {
		digits = s[1:]
	}
	if digits == "" {
		return 0, &strconv.NumError{Func: "Atoi", Num: s, Err: strconv.ErrSyntax}
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, &strconv.NumError{Func: "Atoi", Num: s, Err: strconv.ErrSyntax}
		}
	}
	if len(digits) < len(s) {
		return 0, &strconv.NumError{Func: "Atoi", Num: s, Err: strconv.ErrRange}
	}
	return strconv.Atoi(s)
}

package cli

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/alecthomas/kong"
)

// commaList is the type of every flag that takes a comma-separated list
// (TestEveryListFlagIsCommaList checks it). kong decodes each value given
// to such a flag through listMapper (every occurrence of the flag, and its
// default), so that no list flag escapes the checks: an empty item —
// leading, trailing ("--budgets 0.1,") or doubled — and an item given
// twice are refused, and kong names the flag ("--budgets: …", a usage
// error). The items are trimmed; the values of a repeated flag are joined.
type commaList []string

// listMapper is commaList's kong mapper; withLists registers it.
type listMapper struct{}

// withLists is the kong option that decodes every commaList flag.
var withLists = kong.TypeMapper(reflect.TypeOf(commaList(nil)), listMapper{})

func (listMapper) Decode(ctx *kong.DecodeContext, target reflect.Value) error {
	var s string
	if err := ctx.Scan.PopValueInto("list", &s); err != nil {
		return err
	}
	l := target.Interface().(commaList)
	for _, it := range strings.Split(s, ",") {
		it = strings.TrimSpace(it)
		if it == "" {
			return fmt.Errorf("empty item in %q", s)
		}
		if slices.Contains(l, it) {
			return fmt.Errorf("%s given twice", it)
		}
		l = append(l, it)
	}
	target.Set(reflect.ValueOf(l))
	return nil
}

// PlaceHolder is the flag's name in capitals followed by ",...", as kong
// writes a list flag's.
func (listMapper) PlaceHolder(f *kong.Flag) string {
	if f.PlaceHolder != "" {
		return f.PlaceHolder + ",..."
	}
	return strings.ToUpper(f.Name) + ",..."
}

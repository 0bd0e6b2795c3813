package cli

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
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

// withLists is the kong option that decodes every commaList and
// numberList flag.
var withLists = kong.OptionFunc(func(k *kong.Kong) error {
	for _, o := range []kong.Option{kong.TypeMapper(reflect.TypeOf(commaList(nil)), listMapper{}),
		kong.TypeMapper(reflect.TypeOf(numberList(nil)), numberMapper{})} {
		if err := o.Apply(k); err != nil {
			return err
		}
	}
	return nil
})

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

// numberList is the type of a flag whose value is a vector of numbers
// given comma-separated (--edge-fill 0,0,1): unlike commaList an item may
// repeat, since position carries meaning, but an empty item or one that is
// not a number is refused, and kong names the flag (a usage error).
type numberList []float64

// numberMapper is numberList's kong mapper; withLists registers it.
type numberMapper struct{}

func (numberMapper) Decode(ctx *kong.DecodeContext, target reflect.Value) error {
	var s string
	if err := ctx.Scan.PopValueInto("list", &s); err != nil {
		return err
	}
	l := target.Interface().(numberList)
	for _, it := range strings.Split(s, ",") {
		it = strings.TrimSpace(it)
		if it == "" {
			return fmt.Errorf("empty item in %q", s)
		}
		v, err := strconv.ParseFloat(it, 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", it)
		}
		l = append(l, v)
	}
	target.Set(reflect.ValueOf(l))
	return nil
}

// PlaceHolder is the flag's placeholder (or its name in capitals)
// followed by ",...", as for commaList.
func (numberMapper) PlaceHolder(f *kong.Flag) string { return listMapper{}.PlaceHolder(f) }

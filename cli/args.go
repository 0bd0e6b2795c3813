package cli

import (
	"slices"
	"strconv"
	"strings"
)

// joinNegative writes "--flag -1" as "--flag=-1", so that a negative number
// given to a flag reaches its check ("--budget -1: must lie in (0, 1]")
// instead of being taken for a short flag. No ohm argument is a negative
// number otherwise.
func joinNegative(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "--") && !strings.Contains(a, "=") && i+1 < len(args) && isNegativeNumber(args[i+1]) {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out
}

func isNegativeNumber(s string) bool {
	if len(s) < 2 || s[0] != '-' {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// listFlags are the flags that take comma-separated lists.
var listFlags = []string{"datasets", "forms", "methods", "budgets", "models", "pairnorm", "depths", "splits"}

// checkLists refuses an empty item anywhere in a list flag's value — leading,
// trailing ("--budgets 0.1,", which the parser would otherwise drop) or
// doubled — naming the flag.
func checkLists(args []string) error {
	for i := 0; i < len(args); i++ {
		name, val, ok := strings.Cut(strings.TrimPrefix(args[i], "--"), "=")
		if !strings.HasPrefix(args[i], "--") || !slices.Contains(listFlags, name) {
			continue
		}
		if !ok {
			if i+1 >= len(args) {
				continue
			}
			val = args[i+1]
		}
		for _, it := range strings.Split(val, ",") {
			if strings.TrimSpace(it) == "" {
				return usagef("--%s: empty item in %q", name, val)
			}
		}
	}
	return nil
}

// splitList trims the items of a comma list (kong has split it already, but
// an item may still hold commas when given as one argument) and rejects
// empty items and duplicates.
func splitList(flag string, items []string) ([]string, error) {
	var out []string
	for _, it := range items {
		for _, s := range strings.Split(it, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				return nil, usagef("%s: empty item in %q", flag, strings.Join(items, ","))
			}
			if slices.Contains(out, s) {
				return nil, usagef("%s: %s given twice", flag, s)
			}
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, usagef("%s: empty list", flag)
	}
	return out, nil
}

package sweep

import "fmt"

// FieldError is a bad value of one field of a Spec, or of a list parsed for
// it. Field is the field's JSON name (datasets, budgets, pairnorm, …) and
// Msg what is wrong with it. Remedy, when set, names the value of another
// field that would make the spec valid. A command line maps Field and
// Remedy.Field to its own flags; the error itself names none.
type FieldError struct {
	Field  string
	Msg    string
	Remedy *Setting
}

// Setting is one value of one field of a Spec, by the field's JSON name.
type Setting struct {
	Field, Value string
}

func (e *FieldError) Error() string {
	s := e.Field + ": " + e.Msg
	if e.Remedy != nil {
		s += fmt.Sprintf("; set %s to %s", e.Remedy.Field, e.Remedy.Value)
	}
	return s
}

func fieldErrorf(field, format string, a ...any) *FieldError {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, a...)}
}

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

// ConflictError is two records of one run (the same Key) with different
// results: which one holds is not for ohm to guess. First and Second are
// their 1-based lines in Path (positions in a slice when Path is empty).
type ConflictError struct {
	Path          string
	Key           Key
	First, Second int
}

func (e *ConflictError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("records %d and %d: two different results of the run %s", e.First, e.Second, e.Key)
	}
	return fmt.Sprintf("%s lines %d and %d: two different results of the run %s; keep the line of the one to count and delete the other", e.Path, e.First, e.Second, e.Key)
}

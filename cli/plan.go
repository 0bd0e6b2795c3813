package cli

import (
	"errors"
	"strings"

	"github.com/ohmgnn/ohm/rewire"
)

// rewireFlags names the flag that sets each field of a rewiring
// configuration, for the usage errors of ohm rewire and ohm stats.
var rewireFlags = map[rewire.Field]string{
	rewire.FieldMethod:           "--method",
	rewire.FieldBudget:           "--budget",
	rewire.FieldEdits:            "--edits",
	rewire.FieldMaxIterations:    "--max-iterations",
	rewire.FieldWithinComponents: "--within-components",
	rewire.FieldEngine:           "--engine",
	rewire.FieldAlpha:            "--alpha",
	rewire.FieldStartVector:      "--fosr-x0",
	rewire.FieldForm:             "--directed",
}

// configUsage turns a *rewire.ConfigError into a usage error (exit status
// 2) that names the flag flags maps its field to; any other error is
// returned as it is, nil as nil.
func configUsage(err error, flags map[rewire.Field]string) error {
	var ce *rewire.ConfigError
	if !errors.As(err, &ce) {
		return err
	}
	flag := flags[ce.Field]
	if flag == "" {
		flag = string(ce.Field)
	}
	if ce.Value == nil {
		return usagef("%s: %s", flag, ce.Reason)
	}
	return usagef("%s %v: %s", flag, ce.Value, ce.Reason)
}

// rewireConfig builds the rewiring configuration the flags ask for and
// checks it for the form before any graph is loaded (rewire.Config.Check):
// a problem is a usage error naming its flag.
func rewireConfig(method string, budget float64, edits int, within, directed bool, engine string, maxIter int, alpha float64) (rewire.Config, error) {
	cfg := rewire.Config{Method: rewire.Method(strings.ToLower(method)), Budget: budget, Edits: edits, WithinComponents: within,
		Engine: rewire.EngineKind(strings.ToLower(engine)), MaxIterations: maxIter, Curvature: &rewire.CurvatureOptions{Alpha: alpha}}
	return cfg, configUsage(cfg.Check(directed), rewireFlags)
}

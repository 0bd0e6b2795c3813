package incremental

// Stats is the sketch engine's rounds and solves so far. O(1).
func (e *Sketch) Stats() Stats { return Stats{Rounds: e.round, Solves: e.solves} }

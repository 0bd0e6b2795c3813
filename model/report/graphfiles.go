package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/ohmgnn/ohm/model/sweep"
)

// graphFile is one graph file's identity in the records (ohm sweep --graph):
// the hash of its arrays and its split rule.
type graphFile struct {
	label     string // the dataset as the report names it
	name      string // the dataset name in the records
	sha256    string
	splitRule string
	splitSeed uint64
}

// labelGraphFiles returns the records with their datasets relabelled where
// one name stands for more than one input (two graph files of the same
// name, a graph file named like a built-in dataset, one file under two
// split rules): each graph file's records then become "name@tag", tag the
// first 8 hex digits of its SHA-256 (of the SHA-256 and the split rule when
// it has one), so that no table or figure mixes them. It also returns every
// graph file, by label. recs is not modified. O(len(recs)).
func labelGraphFiles(recs []sweep.Record) ([]sweep.Record, []graphFile) {
	type id struct {
		sha, rule string
		seed      uint64
	}
	ids := map[string][]id{} // by dataset name, in order of appearance
	for _, r := range recs {
		k := id{r.GraphSHA256, r.SplitRule, r.SplitSeed}
		if !slices.Contains(ids[r.Dataset], k) {
			ids[r.Dataset] = append(ids[r.Dataset], k)
		}
	}
	labels := map[string]map[id]string{}
	var files []graphFile
	for name, list := range ids {
		labels[name] = map[id]string{}
		for _, k := range list {
			if k.sha == "" {
				labels[name][k] = name
				continue
			}
			label := name
			if len(list) > 1 {
				tag := k.sha
				if k.rule != "" {
					h := sha256.Sum256(fmt.Appendf(nil, "%s|%s|%d", k.sha, k.rule, k.seed))
					tag = hex.EncodeToString(h[:])
				}
				label = name + "@" + tag[:min(8, len(tag))]
			}
			labels[name][k] = label
			files = append(files, graphFile{label: label, name: name, sha256: k.sha, splitRule: k.rule, splitSeed: k.seed})
		}
	}
	slices.SortFunc(files, func(a, b graphFile) int { return strings.Compare(a.label, b.label) })
	out := slices.Clone(recs)
	for i := range out {
		out[i].Dataset = labels[out[i].Dataset][id{out[i].GraphSHA256, out[i].SplitRule, out[i].SplitSeed}]
	}
	return out, files
}

// writeGraphFiles writes which graph file each graph-file dataset is.
func writeGraphFiles(b *strings.Builder, files []graphFile) {
	if len(files) == 0 {
		return
	}
	b.WriteString("## Graph files\n\nDatasets swept from graph files (`ohm sweep --graph`), by the SHA-256 of the file's arrays. A name that stands for more than one input in the results is shown as name@tag.\n\n")
	b.WriteString("| dataset | graph_sha256 | splits |\n|---|---|---|\n")
	for _, f := range files {
		splits := "the file's masks"
		if f.splitRule != "" {
			splits = fmt.Sprintf("%s, seed %d", f.splitRule, f.splitSeed)
		}
		fmt.Fprintf(b, "| %s | `%s` | %s |\n", f.label, f.sha256, splits)
	}
	b.WriteString("\n")
}

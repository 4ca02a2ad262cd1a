package archivegen

import "github.com/frctool/frctool/numbering"

var (
	events  = []string{"?", "FRC", "960", "Rapid", "Blitz"}
	sites   = []string{"?", "ICC", "Mainz", "lichess.org"}
	results = []string{"1-0", "0-1", "1/2-1/2", "*"}
)

// appendHeaders appends a header-only game: a few tags, then the result
// or no movetext at all.
func (g *Generator) appendHeaders(dst []byte) ([]byte, Record) {
	rec := Record{SP: g.startSP(), Result: pick(g, results)}
	rec.FEN = rec.SP != numbering.StandardSP || g.opt.Dialects && g.chance(0.2)
	rec.Marker = g.chance(0.6)
	dst = appendTag(dst, "Event", pick(g, events))
	dst = appendTag(dst, "Site", pick(g, sites))
	dst = append(dst, `[White "`...)
	dst = g.player(dst, 2, false)
	dst = append(dst, "\"]\n[Black \""...)
	dst = g.player(dst, 2, false)
	dst = append(dst, "\"]\n"...)
	dst = appendTag(dst, "Result", rec.Result)
	// Real files write the FEN before the Variant tag as often as after,
	// or no Variant tag at all beside a FEN.
	variant := !rec.FEN || g.chance(0.5)
	fenFirst := g.opt.Dialects && g.chance(0.5)
	if variant && !fenFirst {
		dst = appendTag(dst, "Variant", g.variant(rec.FEN))
	}
	if rec.FEN {
		dst = append(dst, `[FEN "`...)
		dst = g.appendFEN(dst, rec.SP)
		dst = append(dst, "\"]\n"...)
	}
	if variant && fenFirst {
		dst = appendTag(dst, "Variant", g.variant(rec.FEN))
	}
	dst = append(dst, '\n')
	if rec.Marker {
		dst = append(append(dst, rec.Result...), "\n\n"...)
	}
	return dst, rec
}

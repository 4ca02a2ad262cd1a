// Package tree builds opening trees: for the games played from one start
// position, which moves were played from each position of the opening,
// how often, with what results, by players of what rating, and when.
//
// A node of a Tree is a position (position.Key: the pieces, the side to
// move, the rooks that may still castle, and the en passant file only when
// a capture is possible), not a sequence of moves, so transpositions meet
// in one node, whose counts hold every game that reached it. A game that
// reaches one position twice (the knights going out and back) counts
// there once, and a move played twice from one position counts once.
//
// A Forest holds one Tree per start position: every Chess960 array's
// games in their own tree, or only the games of one chosen position
// (Options.Start, and Options.Moves to start deeper). Games are read with
// Run on frctool's job runner: the workers replay the first plies of each
// game (a Walker), and the lines are added to the trees in input order,
// so that memory grows with the number of positions, not of games:
// about NodeBytes each, and Options.MaxNodes bounds them.
//
// A Forest is written as rows (WriteCSV, WriteTable) or as a JSON
// document (WriteJSON) that ReadJSON reads back and adds up: trees built
// from the parts of an archive and merged equal the tree of the whole.
// Package tree/page writes a Forest as a page to browse in a web browser.
package tree

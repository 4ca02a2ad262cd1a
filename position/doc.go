// Package position holds the rules of chess and Chess960: a board, legal
// move generation, making and taking back moves, and moves in SAN, long
// algebraic and UCI notation.
//
// Castling follows the FIDE Chess960 rules, of which standard chess is one
// case: the king ends on the g-file and the rook on the f-file (O-O), or the
// king on the c-file and the rook on the d-file (O-O-O); every square either
// piece passes over or lands on must be empty but for those two; the king
// must not be in check nor pass over or land on an attacked square.
// Castling rights belong to rooks, as in Shredder-FEN, so positions read
// from X-FEN, Shredder-FEN or a mixture (see package fen) play alike.
//
// A Board is set up from a FEN (ParseFEN, FromFEN), a Chess960 start
// number (Start) or the standard start (New), played forward with Play or
// Push and back with Pop. Moves are read in SAN, long algebraic or UCI
// notation (ParseMove) and written in SAN (SAN) or UCI (UCI); a Move stores
// castling as the king taking its own rook, the one form that covers every
// Chess960 castling.
//
// Moves that cannot be read or played fail with a *MoveError that says why
// in words; errors.Is tells ErrInvalidMove, ErrIllegalMove and
// ErrAmbiguousMove apart.
//
// Board uses bitboards with magic-multiplication attack tables and
// generates legal moves directly from checks and pins, so that Push, Pop
// and move generation allocate nothing.
package position

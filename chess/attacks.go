package chess

// Attack tables. They are computed once at package initialisation and never
// written again: knight, king and pawn attacks by square, and magic-bitboard
// tables for the sliding pieces.

var (
	knightAttacks [64]Bitboard
	kingAttacks   [64]Bitboard
	pawnAttacks   [2][64]Bitboard
	// between[a][b] holds the squares strictly between a and b when they share
	// a rank, file or diagonal, and is empty otherwise.
	between [64][64]Bitboard

	rookMagics   [64]magic
	bishopMagics [64]magic
	slideTable   []Bitboard
)

// magic is one square's entry of a "fancy" magic-bitboard table.
type magic struct {
	mask   Bitboard
	factor uint64
	shift  uint8
	offset uint32
}

func (m *magic) index(occ Bitboard) uint32 {
	return m.offset + uint32((uint64(occ&m.mask)*m.factor)>>m.shift)
}

var (
	rookDirs   = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func init() {
	for s := Square(0); s < 64; s++ {
		f, r := s.File(), s.Rank()
		for _, d := range [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}} {
			knightAttacks[s] |= stepBit(f+d[0], r+d[1])
		}
		for _, d := range [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}} {
			kingAttacks[s] |= stepBit(f+d[0], r+d[1])
		}
		pawnAttacks[White][s] = stepBit(f-1, r+1) | stepBit(f+1, r+1)
		pawnAttacks[Black][s] = stepBit(f-1, r-1) | stepBit(f+1, r-1)
		for _, d := range append(rookDirs[:], bishopDirs[:]...) {
			var ray Bitboard
			for ff, rr := f+d[0], r+d[1]; ff >= 0 && ff < 8 && rr >= 0 && rr < 8; ff, rr = ff+d[0], rr+d[1] {
				between[s][MakeSquare(ff, rr)] = ray
				ray |= MakeSquare(ff, rr).Bit()
			}
		}
	}
	slideTable = make([]Bitboard, 0, 107648)
	seed := uint64(0x9E3779B97F4A7C15)
	for s := Square(0); s < 64; s++ {
		initMagic(&rookMagics[s], s, rookDirs, rookFactors[s], &seed)
		initMagic(&bishopMagics[s], s, bishopDirs, bishopFactors[s], &seed)
	}
}

func stepBit(f, r int) Bitboard {
	if f < 0 || f > 7 || r < 0 || r > 7 {
		return 0
	}
	return MakeSquare(f, r).Bit()
}

// slidingAttacks walks the rays from s until the board edge or the first
// occupied square (included). It is the slow reference used to fill the tables.
func slidingAttacks(s Square, occ Bitboard, dirs [4][2]int) Bitboard {
	var att Bitboard
	for _, d := range dirs {
		for f, r := s.File()+d[0], s.Rank()+d[1]; f >= 0 && f < 8 && r >= 0 && r < 8; f, r = f+d[0], r+d[1] {
			b := MakeSquare(f, r).Bit()
			att |= b
			if occ&b != 0 {
				break
			}
		}
	}
	return att
}

// initMagic fills square s's part of the slide table. It tries the stored
// factor first and, should that ever fail, finds one by trial with a
// fixed-seed generator, so the tables are the same on every run.
func initMagic(m *magic, s Square, dirs [4][2]int, stored uint64, seed *uint64) {
	edges := ((rank1 | rank8) &^ rankMask(s)) | ((fileA | fileH) &^ fileMask(s))
	m.mask = slidingAttacks(s, 0, dirs) &^ edges
	bitsN := m.mask.Count()
	m.shift = uint8(64 - bitsN)
	m.offset = uint32(len(slideTable))
	size := 1 << bitsN
	occs := make([]Bitboard, 0, size)
	refs := make([]Bitboard, 0, size)
	for occ := Bitboard(0); ; occ = (occ - m.mask) & m.mask { // enumerate every subset of the mask
		occs = append(occs, occ)
		refs = append(refs, slidingAttacks(s, occ, dirs))
		if len(occs) == size {
			break
		}
	}
	table := make([]Bitboard, size)
	epoch := make([]int, size)
	for try := 1; ; try++ {
		factor := stored
		if try > 1 {
			// A sparse candidate (few bits set) makes a good magic far more often.
			r1, r2, r3 := rand64(seed), rand64(seed), rand64(seed)
			factor = r1 & r2 & r3
		}
		if Bitboard((uint64(m.mask)*factor)>>56).Count() < 6 {
			continue
		}
		ok := true
		for i, occ := range occs {
			idx := (uint64(occ) * factor) >> m.shift
			if epoch[idx] != try {
				epoch[idx] = try
				table[idx] = refs[i]
			} else if table[idx] != refs[i] {
				ok = false
				break
			}
		}
		if ok {
			m.factor = factor
			slideTable = append(slideTable, table...)
			return
		}
	}
}

func rand64(s *uint64) uint64 { // xorshift64*
	*s ^= *s >> 12
	*s ^= *s << 25
	*s ^= *s >> 27
	return *s * 2685821657736338717
}

func rankMask(s Square) Bitboard { return rank1 << (8 * uint(s.Rank())) }
func fileMask(s Square) Bitboard { return fileA << uint(s.File()) }

// RookAttacks returns the squares a rook on s attacks given the occupied squares.
func RookAttacks(s Square, occ Bitboard) Bitboard {
	m := &rookMagics[s]
	return slideTable[m.index(occ)]
}

// BishopAttacks returns the squares a bishop on s attacks given the occupied squares.
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &bishopMagics[s]
	return slideTable[m.index(occ)]
}

// QueenAttacks returns the squares a queen on s attacks given the occupied squares.
func QueenAttacks(s Square, occ Bitboard) Bitboard {
	return RookAttacks(s, occ) | BishopAttacks(s, occ)
}

// KnightAttacks returns the squares a knight on s attacks.
func KnightAttacks(s Square) Bitboard { return knightAttacks[s] }

// KingAttacks returns the squares a king on s attacks.
func KingAttacks(s Square) Bitboard { return kingAttacks[s] }

// PawnAttacks returns the squares a pawn of colour c on s attacks.
func PawnAttacks(c Color, s Square) Bitboard { return pawnAttacks[c][s] }

// Between returns the squares strictly between a and b on a shared line, or
// the empty set when they share no rank, file or diagonal.
func Between(a, b Square) Bitboard { return between[a][b] }

// AttacksFrom returns the squares a man p on s attacks with blockers occ
// (none for NoPiece).
func AttacksFrom(p Piece, s Square, occ Bitboard) Bitboard {
	switch p.Type() {
	case Pawn:
		return PawnAttacks(p.Color(), s)
	case Knight:
		return KnightAttacks(s)
	case Bishop:
		return BishopAttacks(s, occ)
	case Rook:
		return RookAttacks(s, occ)
	case Queen:
		return QueenAttacks(s, occ)
	case King:
		return KingAttacks(s)
	}
	return 0
}

//! FUDGE opposed combat (fudge-combat-chapter4.txt).

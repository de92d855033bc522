//! Writing edits back into a mod (filled in below).

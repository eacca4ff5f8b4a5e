//! (filled in by issue 21's work)

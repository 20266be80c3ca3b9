//! CPU time of the calling thread, shared by the examples that time the reader.

/// CPU time this thread has run, in seconds (Linux scheduler statistics; `None` elsewhere).
/// Unlike wall-clock time it does not count the time other work on the machine held the
/// cores, so it is the figure to compare on a shared machine.
pub fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

//! Standard output that ends quietly when the reader goes away, and the exit codes.

use std::io::{self, Write};

/// Exit statuses of the command-line contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Every requested level was solved (or the command succeeded).
    Ok = 0,
    /// Some requested levels were not solved.
    NotAllSolved = 1,
    /// Invalid input or usage.
    Invalid = 2,
    /// Interrupted by Ctrl-C.
    Interrupted = 130,
}

/// Line-buffered standard output. A closed pipe (`bisolve ... | head -1`) is reported as
/// [`Closed`] so the program can stop quietly.
pub struct Out {
    pub(crate) inner: io::LineWriter<io::Stdout>,
}

/// Writes one line to standard error. A standard error that cannot be written (closed, or
/// `2>/dev/full`) is ignored: `eprintln!` would panic there.
pub fn warn(text: &str) {
    let _ = writeln!(io::stderr().lock(), "{text}");
}

/// `n` and the noun for it, plural unless `n` is 1: `count(1, "push")` is `1 push`,
/// `count(3, "box")` is `3 boxes`.
pub fn count(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else if noun.ends_with("sh") || noun.ends_with('x') || noun.ends_with('s') {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

/// Standard output was closed by the reader.
#[derive(Debug)]
pub struct Closed;

impl std::fmt::Display for Closed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("standard output closed")
    }
}

impl std::error::Error for Closed {}

impl Out {
    /// Standard output.
    pub fn stdout() -> Out {
        Out { inner: io::LineWriter::new(io::stdout()) }
    }

    /// Writes one line.
    pub fn line(&mut self, text: &str) -> anyhow::Result<()> {
        let result = writeln!(self.inner, "{text}").and_then(|()| self.inner.flush());
        match result {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(Closed.into()),
            Err(e) => Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn counts_say_one_thing_or_many() {
        assert_eq!(count(1u64, "push"), "1 push");
        assert_eq!(count(2u64, "push"), "2 pushes");
        assert_eq!(count(0u64, "box"), "0 boxes");
        assert_eq!(count(1u64, "box"), "1 box");
        assert_eq!(count(1u32, "thread"), "1 thread");
        assert_eq!(count(16u32, "thread"), "16 threads");
        assert_eq!(count(7usize as u64, "move"), "7 moves");
    }
}

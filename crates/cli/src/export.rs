//! `--svg`, `--gif` and `--sok`: writing solutions as pictures and SOK files.
//!
//! Output paths are checked before any solving starts, so a path that cannot be written is
//! reported at once (exit 2). Pictures are written as each level is solved; the SOK file at the
//! end, with every valid level and the solutions found. Every solution is replayed (as a
//! [`Timeline`]) before anything is written.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use bisolve_board::{Level, LevelEntry};

use crate::args::ExportArgs;
use crate::gif_anim;
use crate::input::label;
use crate::output::warn;
use crate::sok::{write_collection, Layout, SokLevel, SokSolution};
use crate::svg;
use crate::timeline::Timeline;

/// The most moves per second pictures and playback accept.
pub const MAX_SPEED: f64 = 1000.0;

/// Files being written for a run.
#[derive(Debug)]
pub struct Exports<'a> {
    args: &'a ExportArgs,
    /// Several levels: pictures are numbered.
    many: bool,
    quiet: bool,
    header: Vec<String>,
    sok: Vec<SokLevel>,
}

impl<'a> Exports<'a> {
    /// Checks the arguments and that every output can be written. `first_index` is the index
    /// of the first level to be written (for numbered pictures), `n_levels` how many.
    pub fn new(
        args: &'a ExportArgs,
        header: &[String],
        first_index: usize,
        n_levels: usize,
        quiet: bool,
    ) -> Result<Exports<'a>> {
        check_speed(args.speed)?;
        let many = n_levels > 1;
        for path in [&args.svg, &args.gif].into_iter().flatten() {
            probe_writable(&numbered(path, many.then_some(first_index)))?;
        }
        if let Some(path) = &args.sok {
            probe_writable(path)?;
        }
        Ok(Exports { args, many, quiet, header: header.to_vec(), sok: Vec::new() })
    }

    /// True when some output was asked for.
    pub fn any(&self) -> bool {
        self.args.svg.is_some() || self.args.gif.is_some() || self.args.sok.is_some()
    }

    /// Records a valid level and its solution (if one was found): writes its pictures and
    /// keeps it for the SOK file. Fails if the solution does not solve the level.
    pub fn add(&mut self, entry: &LevelEntry, level: &Level, lurd: Option<&str>) -> Result<()> {
        if !self.any() {
            return Ok(());
        }
        let timeline = match lurd {
            Some(text) => Some(Timeline::from_lurd(level, text).with_context(|| {
                format!("internal error: {}: the solution does not replay", label(entry))
            })?),
            None => None,
        };
        if let Some(t) = &timeline {
            let index = self.many.then_some(entry.index);
            if let Some(path) = &self.args.svg {
                let path = numbered(path, index);
                let text = svg::animated(level, t, &picture_title(entry), self.args.speed);
                write_file(&path, text.as_bytes())?;
                self.report(&path, t, text.len());
            }
            if let Some(path) = &self.args.gif {
                let path = numbered(path, index);
                let bytes = gif_anim::animated(level, t, self.args.speed)
                    .with_context(|| format!("{}: cannot draw {}", path.display(), label(entry)))?;
                write_file(&path, &bytes)?;
                self.report(&path, t, bytes.len());
            }
        }
        if self.args.sok.is_some() {
            self.sok.push(SokLevel {
                title: entry.title.clone(),
                rows: level.rows().to_vec(),
                metadata: level.metadata().to_vec(),
                solution: timeline.map(|t| SokSolution {
                    lurd: t.lurd(),
                    moves: t.moves().len(),
                    pushes: t.n_pushes(),
                }),
            });
        }
        Ok(())
    }

    /// Writes the SOK file, if one was asked for.
    pub fn finish(self) -> Result<()> {
        if let Some(path) = &self.args.sok {
            let text = write_collection(&self.header, &self.sok, Layout::Sok, self.args.rle);
            write_file(path, text.as_bytes())?;
            if !self.quiet {
                let solved = self.sok.iter().filter(|l| l.solution.is_some()).count();
                warn(&format!(
                    "bisolve: wrote {}: {}, {solved} with a solution",
                    path.display(),
                    crate::output::count(self.sok.len() as u64, "level")
                ));
            }
        }
        Ok(())
    }

    fn report(&self, path: &Path, t: &Timeline, bytes: usize) {
        if !self.quiet {
            warn(&format!("bisolve: wrote {}: {} frames, {}", path.display(), t.n_frames(), size(bytes)));
        }
    }
}

/// Refuses speeds that are not a positive number of moves per second up to [`MAX_SPEED`].
pub fn check_speed(speed: f64) -> Result<()> {
    if !(speed.is_finite() && speed > 0.0 && speed <= MAX_SPEED) {
        bail!("--speed must be a number of moves per second above 0 and at most {MAX_SPEED}, not {speed}");
    }
    Ok(())
}

/// The name of a level in pictures: its title, or `Level N`.
pub fn picture_title(entry: &LevelEntry) -> String {
    entry.title.clone().unwrap_or_else(|| format!("Level {}", entry.index))
}

/// `OUT` for one level; `OUT-N.ext` (N the level's index) when there are several.
pub fn numbered(path: &Path, index: Option<usize>) -> PathBuf {
    let Some(index) = index else { return path.to_path_buf() };
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{index}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{index}"),
    };
    path.with_file_name(name)
}

/// Fails (with the reason) unless `path` can be written, leaving an existing file as it is.
pub fn probe_writable(path: &Path) -> Result<()> {
    let name = path.display();
    if path.is_dir() {
        bail!("{name}: is a directory; give a file name to write");
    }
    if path.exists() {
        OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("{name}: cannot write the file"))?;
    } else {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .with_context(|| format!("{name}: cannot write the file"))?;
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Writes a whole file, naming it in the error.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("{}: cannot write the file", path.display()))
}

/// A byte count for people.
fn size(bytes: usize) -> String {
    if bytes < 10_000 {
        format!("{bytes} bytes")
    } else {
        format!("{:.1} KB", bytes as f64 / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_names() {
        assert_eq!(numbered(Path::new("out/a.svg"), None), PathBuf::from("out/a.svg"));
        assert_eq!(numbered(Path::new("out/a.svg"), Some(3)), PathBuf::from("out/a-3.svg"));
        assert_eq!(numbered(Path::new("a"), Some(12)), PathBuf::from("a-12"));
    }

    #[test]
    fn speeds() {
        assert!(check_speed(8.0).is_ok());
        assert!(check_speed(0.5).is_ok());
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e6] {
            assert!(check_speed(bad).is_err(), "{bad}");
        }
    }
}

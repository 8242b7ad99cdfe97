//! `bisolve options`: the search options as TOML, then the presets and any keys left unset.

use anyhow::Result;
use bisolve_engine::PRESETS;

use crate::args::OptionsArgs;
use crate::config::options;
use crate::output::{Exit, Out};

/// Prints the options the arguments ask for, with every switch the members agree on filled
/// in, as a TOML document that `--options FILE` reads back.
pub fn run(args: &OptionsArgs, out: &mut Out) -> Result<Exit> {
    let asked = options(&args.search)?;
    let mut shown = asked.plan(1)?.options;
    // The restart mode as asked: whether `auto` runs the schedule depends on the threads.
    shown.restarts.mode = asked.restarts.mode;
    out.line("# bisolve search options: read back with --options FILE, change a key with --set KEY=VALUE.")?;
    out.line("# A switch under [search], [push] or [pull] holds for every member; docs/options.md")?;
    out.line("# says what each key does.")?;
    out.line("")?;
    for line in shown.to_toml().lines() {
        out.line(line)?;
    }
    let unset = shown.unset_switches();
    if !unset.is_empty() {
        out.line("")?;
        out.line("# Unset, so each member keeps its own (the members differ):")?;
        for key in unset {
            out.line(&format!("#   {key}"))?;
        }
    }
    out.line("")?;
    out.line("# Presets (--preset NAME):")?;
    for p in PRESETS {
        out.line(&format!("#   {:<10} {}", p.name, p.about))?;
    }
    Ok(Exit::Ok)
}

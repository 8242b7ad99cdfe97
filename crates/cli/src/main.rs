//! The `bisolve` command: solve, show, verify, play and generate Sokoban levels.

mod args;
mod bench;
mod config;
mod export;
mod generate;
mod gif_anim;
mod input;
mod live;
mod optimize_cmd;
mod options_cmd;
mod output;
mod play;
mod record;
mod scene;
mod show;
mod sok;
mod solve_cmd;
mod svg;
mod term;
mod timeline;
mod verify;

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::error::ErrorKind;
use clap::Parser;

use crate::args::{Cli, Command};
use crate::output::{Closed, Exit, Out};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Set by Ctrl-C; every search polls it.
static CANCEL: AtomicBool = AtomicBool::new(false);

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => e.exit(),
        Err(e) => {
            output::warn(&usage_error(&e.render().to_string()));
            return ExitCode::from(Exit::Invalid as u8);
        }
    };
    // A second Ctrl-C while the first is being handled ends the process at once.
    let _ = ctrlc::set_handler(|| {
        if CANCEL.swap(true, Ordering::SeqCst) {
            std::process::exit(Exit::Interrupted as i32);
        }
    });
    let mut out = Out::stdout();
    let result = match &cli.command {
        Some(Command::Show(a)) => show::run(a, &mut out),
        Some(Command::Verify(a)) => verify::run(a, &mut out),
        Some(Command::Bench(a)) => bench::run(a, &CANCEL, &mut out),
        Some(Command::Strategies) => list_strategies(&mut out),
        Some(Command::Options(a)) => options_cmd::run(a, &mut out),
        Some(Command::Play(a)) => play::run(a, &CANCEL, &mut out),
        Some(Command::Generate(a)) => generate::run(a, &CANCEL, &mut out),
        Some(Command::Optimize(a)) => optimize_cmd::run(a, &CANCEL, &mut out),
        None => solve_cmd::run(&cli.solve, &CANCEL, &mut out),
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) if e.is::<Closed>() => ExitCode::SUCCESS,
        Err(e) => {
            output::warn(&format!("bisolve: error: {e:#}"));
            ExitCode::from(Exit::Invalid as u8)
        }
    }
}

/// A usage error as clap renders it (`error: ...`, a tip, the usage), as one line in bisolve's
/// style: `bisolve: error: ...`, the tip after it, and where to read more.
fn usage_error(rendered: &str) -> String {
    // The message: the first paragraph, its lines joined (a list of missing arguments is
    // indented below it).
    let head = rendered.split("\n\n").next().unwrap_or_default();
    let head: Vec<&str> = head.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let head = head.join(" ");
    let head = head.strip_prefix("error: ").unwrap_or(&head);
    let mut line = format!("bisolve: error: {}", if head.is_empty() { "bad arguments" } else { head });
    for tip in rendered.lines().filter_map(|l| l.trim().strip_prefix("tip: ")) {
        line.push_str(&format!(" ({tip})"));
    }
    line.push_str("; see bisolve --help");
    line
}

fn list_strategies(out: &mut Out) -> anyhow::Result<Exit> {
    for (name, what) in bisolve_engine::STRATEGIES {
        out.line(&format!("{name:<18} {what}"))?;
    }
    out.line("Any DIRECTION-ORDERING also works: DIRECTION is forward, backward or bidirectional;")?;
    out.line("ORDERING is astar, wastar (weight 3), wastarN, greedy, fess (K = 3) or fessK")?;
    out.line("(e.g. bidirectional-astar, forward-fess1).")?;
    out.line("")?;
    out.line("Portfolio members (--set members=A,B,...; default marked *):")?;
    let catalogue = bisolve_engine::portfolio::catalogue();
    let width = catalogue.iter().map(|m| m.name.len()).max().unwrap_or(0);
    for m in catalogue {
        let default = if bisolve_engine::portfolio::DEFAULT_MEMBERS.contains(&m.name) { "*" } else { " " };
        out.line(&format!("{default} {:<width$} {}", m.name, m.about))?;
    }
    Ok(Exit::Ok)
}

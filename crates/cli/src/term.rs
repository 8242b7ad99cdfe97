//! Interactive playback in the terminal: raw mode, the alternate screen, keys for speed,
//! pause and single steps.
//!
//! The terminal is restored however playback ends: on `q`, on Ctrl-C (read as a key in raw
//! mode, or the global cancel flag), on an error, and on a panic (a panic hook restores it
//! before the message is printed; the guard's `Drop` does it again while unwinding).

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use bisolve_board::render::{render_state, Overlay};
use bisolve_board::Level;
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::{cursor, execute, queue, terminal};

use crate::export::MAX_SPEED;
use crate::timeline::{Cursor, Timeline};

/// The slowest speed the `-` key goes down to, in moves per second.
const MIN_SPEED: f64 = 0.25;

/// Each `+` or `-` multiplies or divides the speed by this.
const SPEED_STEP: f64 = 1.5;

/// How often the loop wakes up while paused, to notice the cancel flag.
const IDLE_POLL: Duration = Duration::from_millis(100);

/// How playback ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The user quit (`q`, Esc); `frame` is where playback stood.
    Quit { frame: usize },
    /// Ctrl-C.
    Interrupted,
}

/// Puts the terminal back: raw mode off, cursor shown, main screen.
fn restore() {
    let _ = terminal::disable_raw_mode();
    let _ = execute!(io::stdout(), cursor::Show, terminal::LeaveAlternateScreen);
}

/// Raw mode and the alternate screen for as long as it lives.
struct RawTerminal {
    previous_hook: Option<std::sync::Arc<PanicHook>>,
}

type PanicHook = dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static;

impl RawTerminal {
    fn enter() -> Result<RawTerminal> {
        let previous: std::sync::Arc<PanicHook> = std::panic::take_hook().into();
        let chained = previous.clone();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            chained(info);
        }));
        let guard = RawTerminal { previous_hook: Some(previous) };
        terminal::enable_raw_mode()?;
        execute!(io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)?;
        Ok(guard)
    }
}

impl Drop for RawTerminal {
    fn drop(&mut self) {
        restore();
        // Put the previous hook back (ours holds the other reference to it). Hooks cannot be
        // changed while a panic unwinds (that would abort); ours is harmless if it stays.
        if let (Some(previous), false) = (self.previous_hook.take(), std::thread::panicking()) {
            let _ = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| previous(info)));
        }
    }
}

/// Plays the solution in the terminal until the user quits. `speed` is the starting speed in
/// moves per second.
pub fn play(
    level: &Level,
    timeline: &Timeline,
    title: &str,
    speed: f64,
    cancel: &AtomicBool,
) -> Result<Ending> {
    let _raw = RawTerminal::enter()?;
    let board = level.board();
    let mut position = timeline.cursor(board);
    let mut speed = speed.clamp(MIN_SPEED, MAX_SPEED);
    let mut playing = !timeline.moves().is_empty();
    let mut next_due = Instant::now() + step_time(speed);
    let mut stdout = io::stdout();
    let mut shown = None;
    loop {
        // Redraw only when something on screen changed.
        let now = (position.frame(), speed.to_bits(), playing);
        if shown != Some(now) {
            draw(&mut stdout, level, timeline, &position, title, speed, playing)?;
            shown = Some(now);
        }
        if cancel.load(Ordering::Relaxed) {
            return Ok(Ending::Interrupted);
        }
        let wait = if playing { next_due.saturating_duration_since(Instant::now()) } else { IDLE_POLL };
        if !event::poll(wait)? {
            if playing {
                position.forward();
                next_due += step_time(speed);
                // After a long stall (a suspended terminal) do not race to catch up.
                next_due = next_due.max(Instant::now());
                if position.at_end() {
                    playing = false;
                }
            }
            continue;
        }
        let Event::Key(KeyEvent { code, modifiers, kind, .. }) = event::read()? else {
            shown = None; // a resize or focus change: redraw
            continue;
        };
        if kind == KeyEventKind::Release {
            continue;
        }
        match code {
            KeyCode::Char('c') if modifiers.contains(KeyModifiers::CONTROL) => {
                return Ok(Ending::Interrupted)
            }
            KeyCode::Char('q') | KeyCode::Esc => return Ok(Ending::Quit { frame: position.frame() }),
            KeyCode::Char(' ') | KeyCode::Char('p') => {
                if position.at_end() {
                    position.rewind();
                }
                playing = !playing && !position.at_end();
                next_due = Instant::now() + step_time(speed);
            }
            KeyCode::Char('n') | KeyCode::Right => {
                playing = false;
                position.forward();
            }
            KeyCode::Char('b') | KeyCode::Left => {
                playing = false;
                position.back();
            }
            KeyCode::Char('r') | KeyCode::Home => {
                position.rewind();
                next_due = Instant::now() + step_time(speed);
            }
            KeyCode::End => {
                playing = false;
                while position.forward().is_some() {}
            }
            KeyCode::Char('+') | KeyCode::Char('=') | KeyCode::Up => {
                speed = (speed * SPEED_STEP).min(MAX_SPEED);
                next_due = Instant::now() + step_time(speed);
            }
            KeyCode::Char('-') | KeyCode::Char('_') | KeyCode::Down => {
                speed = (speed / SPEED_STEP).max(MIN_SPEED);
                next_due = Instant::now() + step_time(speed);
            }
            _ => {}
        }
    }
}

fn step_time(speed: f64) -> Duration {
    Duration::from_secs_f64(1.0 / speed)
}

/// Draws the current frame with a status line and the keys.
fn draw(
    out: &mut io::Stdout,
    level: &Level,
    timeline: &Timeline,
    position: &Cursor<'_>,
    title: &str,
    speed: f64,
    playing: bool,
) -> Result<()> {
    let color = std::env::var_os("NO_COLOR").is_none();
    let picture = render_state(level.board(), &position.state(), Overlay { color, ..Overlay::default() });
    queue!(out, cursor::MoveTo(0, 0))?;
    let state = if position.at_end() {
        "solved"
    } else if playing {
        "playing"
    } else {
        "paused"
    };
    let status = format!(
        "move {}/{}  pushes {}/{}  {:.2} moves/s  {state}",
        position.frame(),
        timeline.moves().len(),
        position.pushes(),
        timeline.n_pushes(),
        speed,
    );
    let keys = "space pause/play  n/right step  b/left back  +/- speed  r restart  q quit";
    let lines = std::iter::once(title).chain([""]).chain(picture.lines()).chain(["", &status, keys]);
    for line in lines {
        // Overwrite in place, clearing what is left of each line, so nothing flickers.
        write!(out, "{line}")?;
        queue!(out, terminal::Clear(terminal::ClearType::UntilNewLine))?;
        write!(out, "\r\n")?;
    }
    queue!(out, terminal::Clear(terminal::ClearType::FromCursorDown))?;
    out.flush()?;
    Ok(())
}

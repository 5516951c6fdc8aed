//! Copying text out: the system clipboard (arboard), or OSC 52, the terminal escape
//! sequence that asks the terminal to set the clipboard, for when there is no display
//! server or the terminal is remote (SSH, tmux).
//!
//! [`choose`] decides how, from the setting and the environment; [`osc52_sequence`] is
//! the exact bytes written; [`SystemClipboard`] wraps arboard. Writing the OSC 52 bytes
//! to the terminal is the event loop's job, between two frames, so that they never land
//! in the middle of a frame.

use std::fmt;
use std::str::FromStr;

use base64::Engine as _;

/// How to copy, as the user configured it (`--clipboard`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClipboardMode {
    /// The system clipboard when there is a local display, OSC 52 otherwise, and OSC 52
    /// when the system clipboard fails.
    #[default]
    Auto,
    /// The system clipboard only.
    System,
    /// OSC 52 only.
    Osc52,
}

impl FromStr for ClipboardMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(ClipboardMode::Auto),
            "system" => Ok(ClipboardMode::System),
            "osc52" | "osc-52" | "terminal" => Ok(ClipboardMode::Osc52),
            other => Err(format!("unknown clipboard '{other}': expected auto, system or osc52")),
        }
    }
}

/// How a copy was (or is to be) done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyMethod {
    /// The system clipboard, through arboard.
    System,
    /// The terminal, through OSC 52.
    Osc52,
}

impl fmt::Display for CopyMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CopyMethod::System => "the system clipboard",
            CopyMethod::Osc52 => "the terminal's clipboard (OSC 52)",
        })
    }
}

/// Why a copy failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClipboardError {
    /// The system clipboard could not be opened or written.
    #[error("the system clipboard failed: {0}")]
    System(String),
    /// The terminal could not be written.
    #[error("writing to the terminal failed: {0}")]
    Terminal(String),
}

/// What the environment says about clipboards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Environment {
    /// `DISPLAY` or `WAYLAND_DISPLAY` is set (or the platform has a clipboard anyway).
    pub has_display: bool,
    /// `SSH_CONNECTION`, `SSH_CLIENT` or `SSH_TTY` is set: the clipboard that matters is
    /// the one on the user's own machine.
    pub over_ssh: bool,
    /// `TMUX` is set.
    pub in_tmux: bool,
    /// In tmux, its `set-clipboard` option when it is not `on`: tmux then drops the OSC 52
    /// sequences programs send (`external`, its default, and `off`), and a copy would do
    /// nothing without a word (issue 35). `None` outside tmux, or when it is `on`.
    pub tmux_drops_osc52: Option<&'static str>,
}

impl Environment {
    /// Reads the environment variables.
    #[must_use]
    pub fn current() -> Environment {
        let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
        let has_display = !cfg!(target_os = "linux") || set("DISPLAY") || set("WAYLAND_DISPLAY");
        let in_tmux = set("TMUX");
        Environment {
            has_display,
            over_ssh: set("SSH_CONNECTION") || set("SSH_CLIENT") || set("SSH_TTY"),
            in_tmux,
            tmux_drops_osc52: if in_tmux { tmux_drops_osc52() } else { None },
        }
    }
}

/// Asks tmux for its `set-clipboard` option: the value when it drops what programs send
/// (`external` or `off`). Bounded: a tmux that does not answer within a quarter of a
/// second is taken to pass it (the question is left behind, not waited for).
fn tmux_drops_osc52() -> Option<&'static str> {
    let (sender, answer) = std::sync::mpsc::sync_channel(1);
    std::thread::spawn(move || {
        let output = std::process::Command::new("tmux")
            .args(["show-options", "-gv", "set-clipboard"])
            .stdin(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .output();
        let _ = sender.send(output.map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned()));
    });
    match answer.recv_timeout(std::time::Duration::from_millis(250)) {
        Ok(Ok(value)) if value == "external" => Some("external"),
        Ok(Ok(value)) if value == "off" => Some("off"),
        _ => None,
    }
}

/// How to copy under `mode` in `environment`: OSC 52 when asked, or, in `Auto`, when
/// there is no display or the session is remote (SSH, tmux); the system clipboard
/// otherwise.
///
/// # Examples
///
/// ```
/// use robotscope::clipboard::{choose, ClipboardMode, CopyMethod, Environment};
/// let ssh = Environment { has_display: true, over_ssh: true, in_tmux: false, tmux_drops_osc52: None };
/// assert_eq!(choose(ClipboardMode::Auto, ssh), CopyMethod::Osc52);
/// let desktop = Environment { has_display: true, over_ssh: false, in_tmux: false, tmux_drops_osc52: None };
/// assert_eq!(choose(ClipboardMode::Auto, desktop), CopyMethod::System);
/// ```
#[must_use]
pub fn choose(mode: ClipboardMode, environment: Environment) -> CopyMethod {
    let remote = !environment.has_display || environment.over_ssh || environment.in_tmux;
    match mode {
        ClipboardMode::Osc52 => CopyMethod::Osc52,
        ClipboardMode::Auto if remote => CopyMethod::Osc52,
        ClipboardMode::System | ClipboardMode::Auto => CopyMethod::System,
    }
}

/// The OSC 52 sequence that sets the clipboard (`c`) to `text`: `ESC ] 52 ; c ;
/// base64(text) BEL`. BEL ends it rather than ESC `\`, because more terminals accept it.
///
/// # Examples
///
/// ```
/// use robotscope::clipboard::osc52_sequence;
/// assert_eq!(osc52_sequence("Disallow: /"), "\x1b]52;c;RGlzYWxsb3c6IC8=\x07");
/// ```
#[must_use]
pub fn osc52_sequence(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64::engine::general_purpose::STANDARD.encode(text.as_bytes()))
}

/// The longest OSC 52 sequence sent to a terminal, outside tmux: hterm, and with it most
/// terminals' clipboard helpers, take 100,000 bytes; kitty and others take less, xterm
/// more. A longer copy is refused with a message rather than sent to be dropped.
pub const OSC52_MAX_BYTES: usize = 100_000;

/// The longest OSC 52 sequence tmux passes on: it drops escape sequences longer than its
/// input buffer (`INPUT_BUF_LIMIT`, 1 MiB, and `input-buffer-size` where it exists).
pub const OSC52_MAX_BYTES_IN_TMUX: usize = 1 << 20;

/// The longest OSC 52 sequence to send in `environment` (`--osc52-max-bytes` overrides
/// it).
#[must_use]
pub fn osc52_limit(environment: Environment) -> usize {
    if environment.in_tmux { OSC52_MAX_BYTES_IN_TMUX } else { OSC52_MAX_BYTES }
}

/// The length of the OSC 52 sequence that copies `text` ([`osc52_sequence`]), without
/// making it.
///
/// ```
/// use robotscope::clipboard::{osc52_len, osc52_sequence};
/// assert_eq!(osc52_len("Disallow: /"), osc52_sequence("Disallow: /").len());
/// ```
#[must_use]
pub fn osc52_len(text: &str) -> usize {
    "\x1b]52;c;".len() + text.len().div_ceil(3) * 4 + 1
}

/// The system clipboard, kept open: on X11 and Wayland the copied text is served by the
/// process that copied it, so the clipboard object must outlive the copy.
#[derive(Default)]
pub struct SystemClipboard {
    clipboard: Option<arboard::Clipboard>,
}

impl fmt::Debug for SystemClipboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SystemClipboard").field("open", &self.clipboard.is_some()).finish()
    }
}

impl SystemClipboard {
    /// Copies `text` to the system clipboard.
    pub fn copy(&mut self, text: &str) -> Result<(), ClipboardError> {
        if self.clipboard.is_none() {
            self.clipboard = Some(arboard::Clipboard::new().map_err(|e| ClipboardError::System(e.to_string()))?);
        }
        let clipboard = self.clipboard.as_mut().ok_or_else(|| ClipboardError::System("not open".to_owned()))?;
        clipboard.set_text(text.to_owned()).map_err(|e| ClipboardError::System(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_bytes_are_exact() {
        let text = "User-agent: *\nDisallow: /private/\n";
        let expected = b"\x1b]52;c;VXNlci1hZ2VudDogKgpEaXNhbGxvdzogL3ByaXZhdGUvCg==\x07";
        assert_eq!(osc52_sequence(text).as_bytes(), expected);
        assert_eq!(osc52_sequence(""), "\x1b]52;c;\x07");
    }

    #[test]
    fn auto_prefers_osc52_without_a_local_display() {
        let none = Environment::default();
        assert_eq!(choose(ClipboardMode::Auto, none), CopyMethod::Osc52);
        let tmux = Environment { has_display: true, over_ssh: false, in_tmux: true, tmux_drops_osc52: None };
        assert_eq!(choose(ClipboardMode::Auto, tmux), CopyMethod::Osc52);
        assert_eq!(choose(ClipboardMode::System, none), CopyMethod::System);
        assert_eq!("osc52".parse(), Ok(ClipboardMode::Osc52));
    }
}

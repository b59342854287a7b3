//! The CLI's error type: a message meant for a person, and the exit code it maps to.

use std::fmt;

/// Exit code: everything went well (and nothing would be rejected).
pub const EXIT_OK: u8 = 0;
/// Exit code: the input would be rejected (violations found, arguments invalid).
pub const EXIT_VIOLATIONS: u8 = 1;
/// Exit code: bad usage, or input that cannot be read or parsed.
pub const EXIT_USAGE: u8 = 2;

/// A failure of a command: what went wrong, where, and what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    message: String,
    code: u8,
}

impl CliError {
    /// A bad-usage / bad-input error (exit code 2).
    pub fn usage(message: impl Into<String>) -> CliError {
        CliError {
            message: message.into(),
            code: EXIT_USAGE,
        }
    }

    /// The exit code this error maps to.
    pub fn code(&self) -> u8 {
        self.code
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// The result of a command: its exit code, or an error.
pub type CliResult = Result<u8, CliError>;

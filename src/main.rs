//! Foodweb: the desktop client, and the `sim` and `scenario` commands.

// Functions stay short enough to read whole (clippy.toml sets the
// length); test code is left out.
#![warn(clippy::too_many_lines)]
#![cfg_attr(test, allow(clippy::too_many_lines))]

#[cfg(not(target_arch = "wasm32"))]
use clap::Parser;

#[cfg(not(target_arch = "wasm32"))]
mod cli;
mod client;
mod lan;

/// In a browser there is no command line: the page runs the client.
#[cfg(target_arch = "wasm32")]
fn main() {
    client::run();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    // A dropped WebSocket is an ordinary event, but the network stack
    // reports it as an error that captures a backtrace; with RUST_BACKTRACE
    // set, resolving those cost a debug build a gigabyte of memory.
    // Library backtraces stay off unless asked for; panics keep theirs.
    if std::env::var_os("RUST_LIB_BACKTRACE").is_none() {
        // SAFETY: no other thread exists yet.
        unsafe { std::env::set_var("RUST_LIB_BACKTRACE", "0") };
    }
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            let _ = e.print();
            return;
        }
        Err(e) => {
            let first = e
                .to_string()
                .lines()
                .next()
                .unwrap_or("bad arguments")
                .to_string();
            eprintln!("{first} (see foodweb --help)");
            std::process::exit(2);
        }
    };
    match cli.command {
        None => client::run(),
        Some(command) => match cli::run(command) {
            Ok(code) => std::process::exit(code),
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        },
    }
}

//! Foodweb: the desktop client, and the `sim` and `scenario` commands.

use clap::Parser;

mod cli;
mod client;
mod net_cli;

fn main() {
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

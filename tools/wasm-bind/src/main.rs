//! `foodweb-wasm-bind IN.wasm OUT_DIR`: what `wasm-bindgen --target web
//! --no-typescript --out-name foodweb` does, built from the workspace's own
//! lock (wasm/build.sh runs it). Installing the CLI meant compiling it and
//! its HTTP client apart from everything else, from a lock file that pinned
//! a crate version this registry lacks.

use std::path::PathBuf;

use clap::Parser;

#[derive(Parser)]
#[command(
    version,
    about = "Bind a wasm32 build of Foodweb for the web (wasm-bindgen, target web)"
)]
struct Args {
    /// The module cargo built (target/wasm32-unknown-unknown/<profile>/foodweb.wasm).
    input: PathBuf,
    /// Where the bound module and its JavaScript go.
    out_dir: PathBuf,
    /// Base name of what is written (<name>.js, <name>_bg.wasm).
    #[arg(long, default_value = "foodweb")]
    out_name: String,
}

fn main() {
    let args = Args::parse();
    if !args.input.is_file() {
        eprintln!("foodweb-wasm-bind: no module at {}", args.input.display());
        std::process::exit(2);
    }
    let mut bindgen = wasm_bindgen_cli_support::Bindgen::new();
    let bound = bindgen
        .input_path(&args.input)
        .out_name(&args.out_name)
        .typescript(false)
        // What a browser never reads: function names (a third of the
        // module) and the producers section (issue 22).
        .remove_name_section(true)
        .remove_producers_section(true)
        .web(true)
        .and_then(|b| b.generate(&args.out_dir));
    if let Err(e) = bound {
        eprintln!("foodweb-wasm-bind: {e:#}");
        std::process::exit(1);
    }
}

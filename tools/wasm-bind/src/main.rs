//! `foodweb-wasm-bind IN.wasm OUT_DIR`: what `wasm-bindgen --target web
//! --no-typescript --out-name foodweb` does, built from the workspace's own
//! lock (wasm/build.sh runs it). Installing the CLI meant compiling it and
//! its HTTP client apart from everything else, from a lock file that pinned
//! a crate version this registry lacks.
//!
//! It also writes the module's gzip twin (`<name>_bg.wasm.gz`, which
//! `foodweb serve` sends to browsers that take gzip) with Zopfli's
//! deflate: smaller than `gzip -9` by about 3 % at one iteration, read by
//! every gzip decoder.

use std::io::Write;
use std::num::NonZeroU64;
use std::path::{Path, PathBuf};

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
    /// Zopfli's iterations for the module's gzip twin (more: smaller and
    /// slower; 1 takes about a minute for the shipping module).
    #[arg(long, default_value_t = NonZeroU64::MIN)]
    zopfli_iterations: NonZeroU64,
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
    let module = args.out_dir.join(format!("{}_bg.wasm", args.out_name));
    if let Err(e) = gzip_twin(&module, args.zopfli_iterations) {
        eprintln!("foodweb-wasm-bind: {}.gz: {e}", module.display());
        std::process::exit(1);
    }
}

/// Writes `<file>.gz` beside `file`, compressed by Zopfli (the gzip
/// header's time is zero: the same module gives the same bytes).
fn gzip_twin(file: &Path, iterations: NonZeroU64) -> std::io::Result<()> {
    let data = std::fs::read(file)?;
    let mut name = file.as_os_str().to_owned();
    name.push(".gz");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&name)?);
    let options = zopfli::Options {
        iteration_count: iterations,
        ..zopfli::Options::default()
    };
    zopfli::compress(options, zopfli::Format::Gzip, data.as_slice(), &mut out)?;
    out.flush()
}

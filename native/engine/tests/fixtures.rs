//! Behavioural fixture suite: compiles the Java sources under `tests/fixtures/<topic>/`,
//! runs `racer::analyze` on them and compares the issues with `expected.tsv`.
//!
//! Layout (paths relative to the workspace root):
//!
//! - `tests/fixtures/_support/`: shared Java sources (annotation declarations, Android and
//!   thread-utility stand-ins). They are compiled once, with `--release 8` so that fixtures
//!   compiled for any release can use them, and passed to the engine as `classpath`.
//! - `tests/fixtures/<topic>/expected.tsv`: marks a fixture directory. Every `*.java` below that
//!   directory is compiled with `javac -g` (plus the whitespace-separated arguments of an optional
//!   `javac.args`), and the engine is run with `inputs = [classes]`, `classpath = [support]`,
//!   `source_paths = [fixture dir]` and the options of an optional `options.json`.
//!   Directories without `expected.tsv` are searched for nested fixtures.
//!
//! `expected.tsv` holds one issue per line:
//! `KIND<TAB>class<TAB>method<TAB>line<TAB>access_path` (`null` for an issue without a line).
//! Blank lines and lines starting with `#` are ignored; an empty expectation means "no issues".
//! The comparison is exact (as multisets).
//!
//! Every fixture runs twice: with `racerd_compat` (pure RacerD), checked against
//! `expected.tsv`, and in the default mode (with the extensions), checked against
//! `expected.default.tsv` when the extensions change the result, else `expected.tsv` too.
//!
//! A second run compiles the same fixtures with the Eclipse compiler (`RACER_ECJ`, set by
//! `scripts/test.sh`; see `common::ecj`) and checks the same expectations: the analysis must not
//! depend on javac's bytecode shapes.
//!
//! Environment:
//! - `RACER_FIXTURES=topic1,topic2` runs only the named fixtures (substring match).
//! - `RACER_FIXTURES_KEEP=1` keeps the temporary build directory and prints its location.

mod common;

use common::suite::{run_all, selected_fixtures, Compiler, SUPPORT_DIR};
use common::{compile_support, support_sources, workspace_root, TempDir};

#[test]
fn fixtures() {
    run_fixtures("racer-fixtures", &Compiler::Javac);
}

#[test]
fn fixtures_compiled_by_ecj() {
    match std::env::var_os("RACER_ECJ") {
        Some(path) => run_fixtures("racer-fixtures-ecj", &Compiler::Ecj(path.into())),
        None => eprintln!("RACER_ECJ not set: fixtures not compiled with the Eclipse compiler (scripts/test.sh sets it)"),
    }
}

fn run_fixtures(scratch: &str, compiler: &Compiler) {
    let fixtures_root = workspace_root().join("tests").join("fixtures");
    let dirs = selected_fixtures(&fixtures_root);

    let keep = std::env::var_os("RACER_FIXTURES_KEEP").is_some();
    let tmp = TempDir::new(scratch).keep_if(keep, "fixtures");

    let mut classpath = Vec::new();
    if !support_sources().is_empty() {
        let out = tmp.join(SUPPORT_DIR);
        if let Err(e) = compile_support(&out) {
            panic!("cannot compile tests/fixtures/{SUPPORT_DIR}: {e}");
        }
        classpath.push(out);
    }
    run_all(&dirs, tmp.path(), &classpath, compiler);
}

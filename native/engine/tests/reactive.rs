//! Reactive fixture suite: the fixtures under `tests/reactive/` (reactive chains on the JVM:
//! Project Reactor, RxJava without Android) are compiled against the real libraries and analysed
//! with them as context, in the layout and `expected.tsv` format of `tests/fixtures/` (see
//! `tests/fixtures/README.md`), with `tests/fixtures/_support/` on the classpath too. The Android
//! reactive fixtures are in `tests/android/reactive/`.
//!
//! The libraries: `RACER_REACTIVE_JARS` (set by `scripts/test.sh`; a missing jar is then a
//! failure), else the jars `scripts/reactive-libraries.sh` leaves in `build/reactive/`; without
//! them the test is skipped with a message.

mod common;

use common::suite::{run_all, selected_fixtures, Compiler, SUPPORT_DIR};
use common::{compile_support, reactive_jars, workspace_root, TempDir};

#[test]
fn reactive_fixtures() {
    let Some(jars) = reactive_jars() else {
        let message = "reactive fixtures SKIPPED: the reactive libraries are not available; \
                       run scripts/reactive-libraries.sh or set RACER_REACTIVE_JARS";
        assert!(std::env::var_os("RACER_REACTIVE_JARS").is_none(), "{message}");
        eprintln!("{message}");
        return;
    };
    let dirs = selected_fixtures(&workspace_root().join("tests").join("reactive"));
    let keep = std::env::var_os("RACER_FIXTURES_KEEP").is_some();
    let tmp = TempDir::new("racer-reactive").keep_if(keep, "reactive fixtures");
    let support = tmp.join(SUPPORT_DIR);
    if let Err(e) = compile_support(&support) {
        panic!("cannot compile tests/fixtures/{SUPPORT_DIR}: {e}");
    }
    let mut classpath = vec![support];
    classpath.extend(jars);
    run_all(&dirs, tmp.path(), &classpath, &Compiler::Javac);
}

//! The SARIF output validates against the official SARIF 2.1.0 JSON schema (OASIS),
//! fetched by `scripts/sarif-schema.sh` from a registry package, with a JSON Schema
//! validator from crates.io. The run covers every optional part racer emits: code
//! flows, related locations, baseline states, in-source suppressions and warnings.

mod common;

use std::fs;
use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use common::TempDir;

const RACER: &str = env!("CARGO_BIN_EXE_racer");

const SOURCES: &[(&str, &str)] = &[
    (
        "javax/annotation/concurrent/ThreadSafe.java",
        "package javax.annotation.concurrent;\n@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)\npublic @interface ThreadSafe {}\n",
    ),
    (
        "q/SuppressRace.java",
        "package q;\n@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)\npublic @interface SuppressRace { String value() default \"racer\"; String reason() default \"\"; }\n",
    ),
    (
        "q/Account.java",
        "package q;\n@javax.annotation.concurrent.ThreadSafe\npublic class Account {\n  int balance;\n  int fees;\n  \
         public int read() { return balance; }\n  public void write(int b) { helper(b); }\n  \
         private void helper(int b) { balance = b; }\n  \
         @SuppressRace(reason = \"counted elsewhere\") public void charge() { fees = fees + 1; }\n}\n",
    ),
];

const LANGUAGE_PATTERN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";

/// Removes every `"pattern": pattern` from `schema`; returns how many.
fn drop_pattern(schema: &mut Value, pattern: &str) -> usize {
    match schema {
        Value::Object(map) => {
            let own = usize::from(map.get("pattern").and_then(Value::as_str) == Some(pattern));
            if own == 1 {
                map.remove("pattern");
            }
            own + map.values_mut().map(|v| drop_pattern(v, pattern)).sum::<usize>()
        }
        Value::Array(items) => items.iter_mut().map(|v| drop_pattern(v, pattern)).sum(),
        _ => 0,
    }
}

fn schema_path() -> PathBuf {
    if let Some(p) = std::env::var_os("RACER_SARIF_SCHEMA") {
        return PathBuf::from(p);
    }
    let script = common::workspace_root().join("scripts/sarif-schema.sh");
    let out = common::run(&mut Command::new(&script), "scripts/sarif-schema.sh").unwrap_or_else(|e| panic!("{e}"));
    PathBuf::from(out.trim())
}

fn validate(validator: &jsonschema::Validator, sarif: &Value, what: &str) {
    let errors: Vec<String> = validator.iter_errors(sarif).map(|e| format!("{}: {e}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{what}: SARIF does not validate:\n{}\n{sarif:#}", errors.join("\n"));
}

fn sarif(args: &[&std::ffi::OsStr]) -> Value {
    let out = Command::new(RACER).arg("analyze").arg("--format").arg("sarif").args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn sarif_validates_against_the_official_schema() {
    let schema: Value = serde_json::from_str(&fs::read_to_string(schema_path()).unwrap()).unwrap();
    assert_eq!(schema["title"], "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema");
    // The official schema's `language` pattern (`^[a-zA-Z]{2}|...]?$`, on `run` and
    // `toolComponent`) has a stray `]` that strict ECMA-262 checking of the schema itself
    // rejects; racer never emits `language`, so that pattern is dropped before compiling.
    // Everything else is as published.
    let mut schema = schema;
    assert_eq!(drop_pattern(&mut schema, LANGUAGE_PATTERN), 2, "the schema changed");
    let validator = jsonschema::validator_for(&schema).unwrap();

    let tmp = TempDir::new("racer-sarif-schema").keep_on_panic();
    let src = tmp.join("src");
    let mut files = Vec::new();
    for (rel, text) in SOURCES {
        let p = src.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, text).unwrap();
        files.push(p);
    }
    let classes = tmp.join("classes");
    common::javac(&files, &classes, &[], &[]).unwrap_or_else(|e| panic!("{e}"));
    fs::write(classes.join("Broken.class"), "not a class").unwrap();

    // Plain run (with a warning notification), then against a baseline of part of it.
    let plain = sarif(&["--source-path".as_ref(), src.as_os_str(), classes.as_os_str()]);
    validate(&validator, &plain, "plain run");
    let results = plain["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().any(|r| r.get("codeFlows").is_some()), "{plain:#}");
    assert!(results.iter().any(|r| r.get("relatedLocations").is_some()), "{plain:#}");
    assert!(results.iter().any(|r| r.get("suppressions").is_some()), "{plain:#}");

    let baseline = tmp.join("baseline.json");
    let out = Command::new(RACER).arg("analyze").arg("--write-baseline").arg(&baseline).arg(&classes).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = fs::read_to_string(&baseline).unwrap();
    let kept: Vec<&str> = text.lines().filter(|l| !l.contains("\"method\":\"read\"")).collect();
    let trimmed = tmp.join("trimmed.json");
    fs::write(&trimmed, kept.join("\n").replace("},\n  ]", "}\n  ]")).unwrap();
    let with_baseline = sarif(&["--baseline".as_ref(), trimmed.as_os_str(), classes.as_os_str()]);
    validate(&validator, &with_baseline, "run with a baseline");
    let states: Vec<&str> = with_baseline["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["baselineState"].as_str().unwrap())
        .collect();
    assert!(states.contains(&"new") && states.contains(&"unchanged"), "{states:?}");

    // Nothing to report.
    let empty = tmp.join("empty");
    fs::create_dir_all(&empty).unwrap();
    fs::copy(classes.join("javax/annotation/concurrent/ThreadSafe.class"), empty.join("ThreadSafe.class")).unwrap();
    validate(&validator, &sarif(&[empty.as_os_str()]), "empty run");
}

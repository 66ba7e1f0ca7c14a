//! SARIF 2.1.0, as accepted by GitHub code scanning.
//!
//! Locations are relative to the source root that holds the file (`uriBaseId`
//! `SRCROOT`), or, when the file is not found, derived from the package
//! (`a/b/Foo.java`); absolute paths never appear. Rules come from [`super::rules`].
//! `partialFingerprints` carries a line-independent hash (see [`super::fingerprint`]).

use serde_json::{json, Map, Value};

use crate::api::Response;

use super::fingerprint::{fingerprints, SARIF_KEY};
use super::rules::{rule_index, RULES};
use super::{portable_file, sorted_diagnostics, source_in_issue, BaselineState, Issue, SourceIndex, TraceElem};

pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
pub const SARIF_VERSION: &str = "2.1.0";
pub const URI_BASE_ID: &str = "SRCROOT";

pub fn render(response: &Response, sources: &SourceIndex) -> String {
    let cwd = std::env::current_dir().ok();
    let rules: Vec<Value> = RULES
        .iter()
        .map(|r| {
            json!({
                "id": r.id,
                "name": r.name,
                "shortDescription": {"text": r.short},
                "fullDescription": {"text": r.full},
                "help": {"text": r.help, "markdown": r.help},
                "defaultConfiguration": {"level": "warning"},
                "properties": {"tags": ["concurrency", "correctness"], "precision": "medium"},
            })
        })
        .collect();
    let prints = fingerprints(&response.issues);
    let results: Vec<Value> = response
        .issues
        .iter()
        .zip(prints)
        .map(|(issue, print)| result(issue, &print, sources, response.baseline_applied))
        .collect();
    let notifications: Vec<Value> = sorted_diagnostics(response)
        .into_iter()
        .map(|d| {
            json!({
                "level": "warning",
                "message": {"text": format!("{}: {}", portable_file(&d.file, cwd.as_deref()), d.message)},
            })
        })
        .collect();
    let log = json!({
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {
                "name": response.tool.name,
                "version": response.tool.version,
                "semanticVersion": response.tool.version,
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
            }],
            "columnKind": "utf16CodeUnits",
            "results": results,
        }],
    });
    let mut out = serde_json::to_string_pretty(&log).expect("a JSON value always serialises");
    out.push('\n');
    out
}

fn result(issue: &Issue, print: &str, sources: &SourceIndex, baseline_applied: bool) -> Value {
    let index = rule_index(issue.kind);
    let uri = sources.resolve(&issue.class, &issue.source_file).relative;
    let mut r = Map::new();
    r.insert("ruleId".into(), json!(RULES[index].id));
    r.insert("ruleIndex".into(), json!(index));
    r.insert("level".into(), json!("warning"));
    r.insert("message".into(), json!({"text": issue.message}));
    r.insert(
        "locations".into(),
        json!([{
            "physicalLocation": physical(&uri, issue.line),
            "logicalLocations": [{
                "name": issue.method,
                "fullyQualifiedName": format!("{}.{}", issue.class, issue.method),
                "decoratedName": format!("{}.{}{}", issue.class, issue.method, issue.descriptor),
                "kind": "function",
            }],
        }]),
    );
    r.insert("partialFingerprints".into(), json!({ SARIF_KEY: print }));
    if baseline_applied {
        let state = match issue.baseline {
            BaselineState::New => "new",
            BaselineState::Unchanged => "unchanged",
        };
        r.insert("baselineState".into(), json!(state));
    }
    if let Some(s) = &issue.suppressed {
        let mut suppression = json!({"kind": "inSource"});
        if let Some(reason) = &s.reason {
            suppression["justification"] = json!(reason);
        }
        r.insert("suppressions".into(), json!([suppression]));
    }
    let flow = thread_flow(&issue.trace, sources, issue);
    if !flow.is_empty() {
        r.insert("codeFlows".into(), json!([{"threadFlows": [{"locations": flow}]}]));
    }
    if !issue.conflicts.is_empty() {
        let related: Vec<Value> = issue
            .conflicts
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let uri = source_in_issue(sources, issue, &c.class, &c.source_file).relative;
                let sync = if c.locked { "with" } else { "without" };
                json!({
                    "id": i + 1,
                    "physicalLocation": physical(&uri, c.line),
                    "message": {"text": format!(
                        "Conflicting {} of `{}` {sync} synchronization in {}.{}",
                        c.access, c.access_path, c.class, c.method
                    )},
                })
            })
            .collect();
        r.insert("relatedLocations".into(), Value::Array(related));
    }
    r.insert(
        "properties".into(),
        json!({
            "class": issue.class,
            "method": issue.method,
            "descriptor": issue.descriptor,
            "accessPath": issue.access_path,
        }),
    );
    Value::Object(r)
}

/// Thread-flow locations for a trace. Label elements (line 0: "read trace", "write
/// trace") carry no location; their text prefixes the next located step.
fn thread_flow(trace: &[TraceElem], sources: &SourceIndex, issue: &Issue) -> Vec<Value> {
    let mut locations = Vec::new();
    let mut label: Option<String> = None;
    for elem in trace {
        if elem.line == 0 {
            label = Some(match label.take() {
                Some(l) => format!("{l}; {}", elem.description),
                None => elem.description.clone(),
            });
            continue;
        }
        let text = match label.take() {
            Some(l) => format!("{l}: {}", elem.description),
            None => elem.description.clone(),
        };
        let uri = source_in_issue(sources, issue, &elem.class, &elem.source_file).relative;
        locations.push(json!({
            "location": {
                "physicalLocation": physical(&uri, elem.line),
                "message": {"text": text},
            },
        }));
    }
    locations
}

fn physical(uri: &str, line: u32) -> Value {
    let mut loc = json!({"artifactLocation": {"uri": encode_uri_path(uri), "uriBaseId": URI_BASE_ID}});
    if line > 0 {
        loc["region"] = json!({"startLine": line});
    }
    loc
}

/// Percent-encodes a relative `/`-separated path for use as a URI reference.
fn encode_uri_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b'$' | b'+' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::test_support::*;

    /// A subset of JSON Schema (type, required, properties, items, minItems, minimum,
    /// enum, const, additionalProperties=false) and a schema for the parts of SARIF
    /// 2.1.0 we emit, transcribed from the OASIS schema's constraints.
    fn check(schema: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
        if let Some(t) = schema.get("type").and_then(Value::as_str) {
            let ok = match t {
                "object" => v.is_object(),
                "array" => v.is_array(),
                "string" => v.is_string(),
                "integer" => v.is_u64() || v.is_i64(),
                "boolean" => v.is_boolean(),
                _ => true,
            };
            if !ok {
                errors.push(format!("{at}: expected {t}, got {v}"));
                return;
            }
        }
        if let Some(c) = schema.get("const") {
            if c != v {
                errors.push(format!("{at}: expected {c}, got {v}"));
            }
        }
        if let Some(e) = schema.get("enum").and_then(Value::as_array) {
            if !e.contains(v) {
                errors.push(format!("{at}: {v} not in {e:?}"));
            }
        }
        if let (Some(min), Some(n)) = (schema.get("minimum").and_then(Value::as_i64), v.as_i64()) {
            if n < min {
                errors.push(format!("{at}: {n} < {min}"));
            }
        }
        if let Some(req) = schema.get("required").and_then(Value::as_array) {
            for k in req {
                if v.get(k.as_str().unwrap()).is_none() {
                    errors.push(format!("{at}: missing {k}"));
                }
            }
        }
        if let (Some(props), Some(obj)) = (schema.get("properties").and_then(Value::as_object), v.as_object()) {
            for (k, sub) in props {
                if let Some(child) = obj.get(k) {
                    check(sub, child, &format!("{at}.{k}"), errors);
                }
            }
            if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
                for k in obj.keys() {
                    if !props.contains_key(k) {
                        errors.push(format!("{at}: unexpected {k}"));
                    }
                }
            }
        }
        if let Some(arr) = v.as_array() {
            if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
                if (arr.len() as u64) < min {
                    errors.push(format!("{at}: fewer than {min} items"));
                }
            }
            if let Some(items) = schema.get("items") {
                for (i, item) in arr.iter().enumerate() {
                    check(items, item, &format!("{at}[{i}]"), errors);
                }
            }
        }
    }

    fn sarif_schema() -> Value {
        let message = json!({"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}});
        let physical = json!({
            "type": "object", "required": ["artifactLocation"],
            "properties": {
                "artifactLocation": {"type": "object", "required": ["uri", "uriBaseId"], "properties": {
                    "uri": {"type": "string"}, "uriBaseId": {"const": "SRCROOT"}}},
                "region": {"type": "object", "required": ["startLine"], "properties": {
                    "startLine": {"type": "integer", "minimum": 1}}},
            },
        });
        let rule = json!({
            "type": "object",
            "required": ["id", "shortDescription", "fullDescription", "help", "defaultConfiguration"],
            "properties": {
                "id": {"type": "string"}, "name": {"type": "string"},
                "shortDescription": message, "fullDescription": message, "help": message,
                "defaultConfiguration": {"type": "object", "properties": {
                    "level": {"enum": ["none", "note", "warning", "error"]}}},
            },
        });
        let result = json!({
            "type": "object",
            "required": ["ruleId", "ruleIndex", "level", "message", "locations", "partialFingerprints"],
            "properties": {
                "ruleId": {"type": "string"},
                "ruleIndex": {"type": "integer", "minimum": 0},
                "level": {"enum": ["none", "note", "warning", "error"]},
                "message": message,
                "locations": {"type": "array", "minItems": 1, "items": {"type": "object",
                    "required": ["physicalLocation"], "properties": {"physicalLocation": physical}}},
                "partialFingerprints": {"type": "object", "required": ["racer/v1"],
                    "properties": {"racer/v1": {"type": "string"}}},
                "codeFlows": {"type": "array", "minItems": 1, "items": {"type": "object",
                    "required": ["threadFlows"], "properties": {"threadFlows": {"type": "array", "minItems": 1,
                        "items": {"type": "object", "required": ["locations"], "properties": {
                            "locations": {"type": "array", "minItems": 1, "items": {"type": "object",
                                "required": ["location"], "properties": {"location": {"type": "object",
                                    "properties": {"physicalLocation": physical, "message": message}}}}}}}}}}},
                "relatedLocations": {"type": "array", "items": {"type": "object",
                    "required": ["id", "physicalLocation", "message"],
                    "properties": {"id": {"type": "integer", "minimum": 0}, "physicalLocation": physical, "message": message}}},
            },
        });
        json!({
            "type": "object",
            "required": ["$schema", "version", "runs"],
            "additionalProperties": false,
            "properties": {
                "$schema": {"type": "string"},
                "version": {"const": "2.1.0"},
                "runs": {"type": "array", "minItems": 1, "items": {"type": "object", "required": ["tool", "results"],
                    "properties": {
                        "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                            "type": "object", "required": ["name", "version", "rules"], "properties": {
                                "name": {"const": "racer"}, "version": {"type": "string"},
                                "rules": {"type": "array", "items": rule}}}}},
                        "invocations": {"type": "array", "items": {"type": "object",
                            "required": ["executionSuccessful"], "properties": {
                                "executionSuccessful": {"type": "boolean"},
                                "toolExecutionNotifications": {"type": "array", "items": {"type": "object",
                                    "required": ["message"], "properties": {"message": message}}}}}},
                        "results": {"type": "array", "items": result},
                    }}},
            },
        })
    }

    fn validate(out: &str) -> Value {
        let v: Value = serde_json::from_str(out).unwrap();
        let mut errors = Vec::new();
        check(&sarif_schema(), &v, "$", &mut errors);
        assert!(errors.is_empty(), "SARIF schema violations: {errors:#?}");
        // Cross-field rules the schema language cannot express.
        let run = &v["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
        let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["THREAD_SAFETY_VIOLATION", "INTERFACE_NOT_THREAD_SAFE", "GUARDEDBY_VIOLATION"]);
        for r in run["results"].as_array().unwrap() {
            let i = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(rules[i]["id"], r["ruleId"]);
        }
        v
    }

    #[test]
    fn structure_validates() {
        let mut kinds = vec![rich_issue(), issue("x.Y", "m", "this.f", 7)];
        kinds[1].kind = crate::report::IssueKind::GuardedByViolation;
        let out = render(&response(kinds), &SourceIndex::new(&[]));
        let v = validate(&out);
        let results = v["runs"][0]["results"].as_array().unwrap();
        assert_eq!(results.len(), 2);
        let r = &results[0];
        assert_eq!(r["ruleId"], "THREAD_SAFETY_VIOLATION");
        assert_eq!(r["ruleIndex"], 0);
        let loc = &r["locations"][0]["physicalLocation"];
        assert_eq!(loc["artifactLocation"]["uri"], "a/b/Foo.java");
        assert_eq!(loc["region"]["startLine"], 4);
        let flow = r["codeFlows"][0]["threadFlows"][0]["locations"].as_array().unwrap();
        assert_eq!(flow.len(), 2, "the label folds into the next step");
        assert_eq!(flow[0]["location"]["message"]["text"], "read trace: call to `Helper.peek()`");
        assert_eq!(flow[1]["location"]["physicalLocation"]["artifactLocation"]["uri"], "c/Helper.java");
        assert_eq!(r["relatedLocations"][0]["physicalLocation"]["region"]["startLine"], 2);
        assert_eq!(results[1]["ruleIndex"], 2);
        let notes = v["runs"][0]["invocations"][0]["toolExecutionNotifications"].as_array().unwrap();
        assert_eq!(notes.len(), 2);
    }

    #[test]
    fn empty_run_validates() {
        let out = render(&Response::default(), &SourceIndex::new(&[]));
        let v = validate(&out);
        assert_eq!(v["runs"][0]["results"].as_array().unwrap().len(), 0);
    }

    #[test]
    fn fingerprints_ignore_lines() {
        let a = rich_issue();
        let mut b = a.clone();
        b.line = 40;
        let fa = render(&response(vec![a]), &SourceIndex::new(&[]));
        let fb = render(&response(vec![b]), &SourceIndex::new(&[]));
        let pa: Value = serde_json::from_str(&fa).unwrap();
        let pb: Value = serde_json::from_str(&fb).unwrap();
        let key = |v: &Value| v["runs"][0]["results"][0]["partialFingerprints"]["racer/v1"].clone();
        assert_eq!(key(&pa), key(&pb));
        assert_ne!(fa, fb);
    }

    #[test]
    fn relative_uris_only_and_deterministic() {
        let tmp = TempDir::new("sarif");
        tmp.write("src/main/java/a/b/Foo.java", "package a.b;\n");
        tmp.write("src/main/java/other/My File.kt", "\n");
        let sources = SourceIndex::new(&[tmp.path().join("src/main/java")]);
        let mut kt = issue("q.MyFileKt", "run", "this.x", 1);
        kt.source_file = "My File.kt".into();
        let r = response(vec![rich_issue(), kt]);
        let out = render(&r, &sources);
        assert_eq!(out, render(&r, &SourceIndex::new(&[tmp.path().join("src/main/java")])));
        let v = validate(&out);
        assert!(!out.contains(&tmp.path().display().to_string()), "no absolute paths");
        let uri = |i: usize| v["runs"][0]["results"][i]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].clone();
        assert_eq!(uri(0), "a/b/Foo.java");
        assert_eq!(uri(1), "other/My%20File.kt");
    }

    #[test]
    fn uri_encoding() {
        assert_eq!(encode_uri_path("a/b/Foo$1.java"), "a/b/Foo$1.java");
        assert_eq!(encode_uri_path("a b/ä#.kt"), "a%20b/%C3%A4%23.kt");
    }
}

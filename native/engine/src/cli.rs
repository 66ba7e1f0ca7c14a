//! Command-line parsing for `racer`: hand-written, no dependencies.

use std::ffi::OsString;
use std::path::PathBuf;

use racer::api::{Request, REQUEST_VERSION};
use racer::report::Format;

pub const USAGE: &str = "\
racer: find data races in JVM bytecode

Usage:
  racer analyze [OPTIONS] PATH...   analyse class directories, jars or .class files
  racer --version                   print the version
  racer help                        print this help

Options for analyze:
  --format text|json|sarif|html     report format (default: text)
  --output FILE                     write the report to FILE (atomically) instead of stdout
  --classpath PATH                  context-only classes (directory or jar); repeatable,
                                    also a list separated like the PATH variable
  --source-path DIR                 source root for snippets and relative locations; repeatable
  --thread-safe-annotation NAME     extra annotation treated as @ThreadSafe; repeatable
  --ignore-class NAME|GLOB          never report on this class (a.b.Outer$Inner) or on classes matching
                                    a glob (a.gen.* in one package, a.gen.** below it); repeatable
  --library-package PREFIX          analyse but never report on this package; repeatable
  --summaries-in FILE               summaries of upstream modules; repeatable
  --summaries-out FILE              write this run's summaries to FILE
  --threads N                       worker threads (default 0: one per core)
  --baseline FILE                   issues recorded in FILE are reported as baselined, not new
  --write-baseline FILE             write this run's issues to FILE as a baseline
  --filter FILE                     include/exclude filter file (JSON; see the README)
  --console-limit N                 issues shown in full on the console (default 20)
  --racerd-compat                   report only what RacerD reports
  --max-memory SIZE                 memory ceiling for the analysis (512m, 2g; default unlimited)
  --fail-on-issues                  exit with status 1 when any new issue is reported
                                    (baselined and suppressed ones do not count)
  --quiet                           do not print warnings or the summary line to stderr

Exit status: 0 done, 1 issues found with --fail-on-issues, 2 usage or input error.
";

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    Help,
    Version,
    Analyze(Box<Analyze>),
}

#[derive(Debug)]
pub struct Analyze {
    pub request: Request,
    pub format: Format,
    pub output: Option<PathBuf>,
    pub fail_on_issues: bool,
    pub quiet: bool,
}

/// Parses the arguments after the program name. Errors are one-line messages.
pub fn parse(args: Vec<OsString>) -> Result<Command, String> {
    let mut args = args.into_iter();
    let Some(first) = args.next() else {
        return Err("no command given (try 'racer help')".into());
    };
    match first.to_str() {
        Some("analyze") => parse_analyze(args),
        Some("help" | "--help" | "-h") => Ok(Command::Help),
        Some("--version" | "-V" | "version") => Ok(Command::Version),
        _ => Err(format!(
            "unknown command '{}' (expected analyze, help or --version)",
            first.to_string_lossy()
        )),
    }
}

fn parse_analyze(mut args: impl Iterator<Item = OsString>) -> Result<Command, String> {
    let mut request = Request { request_version: REQUEST_VERSION, ..Request::default() };
    let mut format: Option<Format> = None;
    let mut output: Option<PathBuf> = None;
    let mut threads: Option<usize> = None;
    let mut fail_on_issues = false;
    let mut quiet = false;
    let mut only_paths = false;

    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy().into_owned();
        if only_paths || !text.starts_with('-') || text == "-" {
            request.inputs.push(PathBuf::from(arg));
            continue;
        }
        if text == "--" {
            only_paths = true;
            continue;
        }
        // `--name=value` or `--name value`.
        let (name, inline) = match text.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(OsString::from(v))),
            _ => (text.clone(), None),
        };
        let takes_value = matches!(
            name.as_str(),
            "--classpath" | "--cp" | "--format" | "--output" | "-o" | "--thread-safe-annotation"
                | "--ignore-class" | "--library-package" | "--source-path" | "--summaries-in"
                | "--summaries-out" | "--threads" | "--baseline" | "--write-baseline" | "--filter"
                | "--console-limit" | "--max-memory"
        );
        let value = if takes_value {
            match inline {
                Some(v) => Some(v),
                None => Some(args.next().ok_or_else(|| format!("option {name} needs a value"))?),
            }
        } else {
            if inline.is_some() {
                return Err(format!("option {name} takes no value"));
            }
            None
        };
        let value_path = || PathBuf::from(value.clone().unwrap_or_default());
        let value_str = || -> Result<String, String> {
            let v = value.clone().unwrap_or_default();
            let s = v.into_string().map_err(|v| format!("value for {name} is not valid text: {}", v.to_string_lossy()))?;
            if s.trim().is_empty() {
                return Err(format!("option {name} needs a non-empty value"));
            }
            Ok(s)
        };
        match name.as_str() {
            "--help" | "-h" => return Ok(Command::Help),
            "--fail-on-issues" => fail_on_issues = true,
            "--quiet" | "-q" => quiet = true,
            "--classpath" | "--cp" => {
                let v = value.clone().unwrap_or_default();
                request.classpath.extend(std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()));
            }
            "--format" => {
                once(&name, format.is_some())?;
                format = Some(value_str()?.parse()?);
            }
            "--output" | "-o" => {
                once(&name, output.is_some())?;
                output = Some(value_path());
            }
            "--thread-safe-annotation" => request.options.thread_safe_annotations.push(value_str()?),
            "--ignore-class" => request.options.ignore_classes.push(value_str()?),
            "--library-package" => request.options.library_packages.push(value_str()?),
            "--source-path" => request.source_paths.push(value_path()),
            "--summaries-in" => request.summaries_in.push(value_path()),
            "--summaries-out" => {
                once(&name, request.summaries_out.is_some())?;
                request.summaries_out = Some(value_path());
            }
            "--racerd-compat" => request.options.racerd_compat = true,
            "--baseline" => {
                once(&name, request.baseline.is_some())?;
                request.baseline = Some(value_path());
            }
            "--write-baseline" => {
                once(&name, request.write_baseline.is_some())?;
                request.write_baseline = Some(value_path());
            }
            "--filter" => {
                once(&name, request.filter.is_some())?;
                request.filter = Some(value_path());
            }
            "--console-limit" => {
                once(&name, request.console_limit.is_some())?;
                let v = value_str()?;
                request.console_limit = Some(v.trim().parse().map_err(|_| {
                    format!("invalid value '{v}' for --console-limit (expected a whole number)")
                })?);
            }
            "--max-memory" => {
                let v = value_str()?;
                request.options.max_memory_mb = parse_size_mb(&v)
                    .ok_or_else(|| format!("invalid value '{v}' for --max-memory (expected a size like 512m or 2g)"))?;
            }
            "--threads" => {
                once(&name, threads.is_some())?;
                let v = value_str()?;
                threads = Some(v.trim().parse().map_err(|_| {
                    format!("invalid value '{v}' for --threads (expected a whole number, 0 = one per core)")
                })?);
            }
            _ => return Err(format!("unknown option '{name}' (try 'racer help')")),
        }
    }
    if request.inputs.is_empty() {
        return Err("no input paths given (usage: racer analyze [OPTIONS] PATH...)".into());
    }
    request.options.threads = threads.unwrap_or(0);
    Ok(Command::Analyze(Box::new(Analyze {
        request,
        format: format.unwrap_or(Format::Text),
        output,
        fail_on_issues,
        quiet,
    })))
}

/// `512m`, `2g`, `2048` (MiB) to MiB.
fn parse_size_mb(s: &str) -> Option<u64> {
    let s = s.trim().to_ascii_lowercase();
    let (digits, factor) = match s.strip_suffix(['g', 'm', 'k']) {
        Some(d) if s.ends_with('g') => (d, 1024),
        Some(d) if s.ends_with('m') => (d, 1),
        Some(d) => return d.parse::<u64>().ok().map(|k| k.div_ceil(1024)),
        None => (s.as_str(), 1),
    };
    digits.parse::<u64>().ok()?.checked_mul(factor)
}

fn once(name: &str, already: bool) -> Result<(), String> {
    if already {
        Err(format!("option {name} given more than once"))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_strs(args: &[&str]) -> Result<Command, String> {
        parse(args.iter().map(OsString::from).collect())
    }

    fn analyze(args: &[&str]) -> Analyze {
        match parse_strs(args) {
            Ok(Command::Analyze(a)) => *a,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn full_command_line() {
        let a = analyze(&[
            "analyze", "--format", "sarif", "--output=out/r.sarif", "--classpath", "a.jar:b",
            "--classpath=c", "--thread-safe-annotation", "Conc", "--ignore-class", "a.B$C",
            "--library-package", "v.", "--source-path", "src", "--summaries-in", "s1.json",
            "--summaries-in", "s2.json", "--summaries-out", "o.json", "--threads", "2",
            "--fail-on-issues", "--quiet", "--baseline", "b.json", "--write-baseline=nb.json",
            "--filter", "f.json", "--console-limit", "5", "--racerd-compat", "--max-memory", "2g",
            "--ignore-class", "a.gen.*", "classes", "--", "--odd-dir",
        ]);
        assert_eq!(a.format, Format::Sarif);
        assert_eq!(a.output, Some(PathBuf::from("out/r.sarif")));
        assert!(a.fail_on_issues && a.quiet);
        let r = &a.request;
        assert_eq!(r.request_version, REQUEST_VERSION);
        if cfg!(unix) {
            assert_eq!(r.classpath, [PathBuf::from("a.jar"), "b".into(), "c".into()]);
        }
        assert_eq!(r.options.thread_safe_annotations, ["Conc"]);
        assert_eq!(r.options.ignore_classes, ["a.B$C", "a.gen.*"]);
        assert_eq!(r.baseline, Some(PathBuf::from("b.json")));
        assert_eq!(r.write_baseline, Some(PathBuf::from("nb.json")));
        assert_eq!(r.filter, Some(PathBuf::from("f.json")));
        assert_eq!(r.console_limit, Some(5));
        assert!(r.options.racerd_compat);
        assert_eq!(r.options.max_memory_mb, 2048);
        assert_eq!(r.options.library_packages, ["v."]);
        assert_eq!(r.options.threads, 2);
        assert_eq!(r.source_paths, [PathBuf::from("src")]);
        assert_eq!(r.summaries_in, [PathBuf::from("s1.json"), "s2.json".into()]);
        assert_eq!(r.summaries_out, Some(PathBuf::from("o.json")));
        assert_eq!(r.inputs, [PathBuf::from("classes"), "--odd-dir".into()]);
    }

    #[test]
    fn defaults() {
        let a = analyze(&["analyze", "build/classes"]);
        assert_eq!(a.format, Format::Text);
        assert!(a.output.is_none() && !a.fail_on_issues && !a.quiet);
        assert_eq!(a.request.options.threads, 0);
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size_mb("512m"), Some(512));
        assert_eq!(parse_size_mb("2G"), Some(2048));
        assert_eq!(parse_size_mb("100"), Some(100));
        assert_eq!(parse_size_mb("1536k"), Some(2));
        assert_eq!(parse_size_mb("g"), None);
    }

    #[test]
    fn commands() {
        assert!(matches!(parse_strs(&["help"]), Ok(Command::Help)));
        assert!(matches!(parse_strs(&["--help"]), Ok(Command::Help)));
        assert!(matches!(parse_strs(&["analyze", "--help"]), Ok(Command::Help)));
        assert!(matches!(parse_strs(&["--version"]), Ok(Command::Version)));
    }

    #[test]
    fn usage_errors_are_one_line() {
        for (args, needle) in [
            (&[][..], "no command"),
            (&["frobnicate"][..], "unknown command 'frobnicate'"),
            (&["analyze"][..], "no input paths"),
            (&["analyze", "--format", "xml", "x"][..], "'xml'"),
            (&["analyze", "--threads", "many", "x"][..], "'many'"),
            (&["analyze", "--threads", "-1", "x"][..], "'-1'"),
            (&["analyze", "--bogus", "x"][..], "unknown option '--bogus'"),
            (&["analyze", "x", "--output"][..], "--output needs a value"),
            (&["analyze", "--quiet=yes", "x"][..], "takes no value"),
            (&["analyze", "--format", "json", "--format", "text", "x"][..], "more than once"),
            (&["analyze", "--ignore-class", "", "x"][..], "non-empty"),
            (&["analyze", "--max-memory", "lots", "x"][..], "'lots'"),
            (&["analyze", "--console-limit", "-3", "x"][..], "'-3'"),
            (&["analyze", "--baseline", "a", "--baseline", "b", "x"][..], "more than once"),
        ] {
            let err = parse_strs(args).unwrap_err();
            assert!(err.contains(needle), "{args:?}: {err}");
            assert!(!err.contains('\n'));
        }
    }
}

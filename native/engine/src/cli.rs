//! Command-line parsing for `racer`, with clap. Every usage error becomes one line.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::NonEmptyStringValueParser;
use clap::error::ErrorKind;
use clap::{Args, Parser, Subcommand};

use racer::api::{Request, REQUEST_VERSION};
use racer::report::Format;

/// find data races in JVM bytecode
#[derive(Parser, Debug)]
#[command(name = "racer", version, after_help = EXIT_STATUS)]
struct Cli {
    #[command(subcommand)]
    command: Sub,
}

const EXIT_STATUS: &str = "Exit status: 0 done, 1 issues found with --fail-on-issues, 2 usage or input error.";

#[derive(Subcommand, Debug)]
enum Sub {
    /// Analyse class directories, jars or .class files
    #[command(after_help = EXIT_STATUS)]
    Analyze(AnalyzeArgs),
    /// Run a request document (JSON, as the build plugins send it) and print the response
    AnalyzeRequest {
        /// The request file; stdin when absent or `-`
        file: Option<PathBuf>,
    },
    /// Summary files (--summaries-out)
    Summaries {
        #[command(subcommand)]
        action: SummariesAction,
    },
}

#[derive(Subcommand, Debug)]
enum SummariesAction {
    /// Print a summary file as JSON
    Dump {
        file: PathBuf,
        /// Only this class (a.b.Outer$Inner) or the classes matching a glob (a.gen.* in one
        /// package, a.gen.** below it), with their methods; repeatable
        #[arg(long = "class", value_name = "NAME|GLOB", value_parser = NonEmptyStringValueParser::new())]
        classes: Vec<String>,
    },
}

#[derive(Args, Debug)]
struct AnalyzeArgs {
    /// Class directories, jars or .class files to analyse and report on
    #[arg(value_name = "PATH", required = true)]
    inputs: Vec<PathBuf>,
    /// Report format: text, json, sarif or html [default: text]
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    format: Option<Format>,
    /// Write the report to FILE (atomically) instead of stdout
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// Context-only classes (directory or jar); repeatable, also a list separated like PATH
    #[arg(long, visible_alias = "cp", value_name = "PATH")]
    classpath: Vec<OsString>,
    /// Source root for snippets and relative locations; repeatable
    #[arg(long, value_name = "DIR")]
    source_path: Vec<PathBuf>,
    /// Extra annotation treated as @ThreadSafe; repeatable
    #[arg(long, value_name = "NAME", value_parser = NonEmptyStringValueParser::new())]
    thread_safe_annotation: Vec<String>,
    /// Never report on this class (a.b.Outer$Inner) or on classes matching a glob
    /// (a.gen.* in one package, a.gen.** below it); repeatable
    #[arg(long, value_name = "NAME|GLOB", value_parser = NonEmptyStringValueParser::new())]
    ignore_class: Vec<String>,
    /// Analyse but never report on this package; repeatable
    #[arg(long, value_name = "PREFIX", value_parser = NonEmptyStringValueParser::new())]
    library_package: Vec<String>,
    /// Summaries of upstream modules; repeatable
    #[arg(long, value_name = "FILE")]
    summaries_in: Vec<PathBuf>,
    /// Write this run's summaries to FILE
    #[arg(long, value_name = "FILE")]
    summaries_out: Option<PathBuf>,
    /// Worker threads (0: one per core)
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
    /// Issues recorded in FILE are reported as baselined, not new
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Write this run's issues to FILE as a baseline
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
    /// Include/exclude filter file (JSON; see the README)
    #[arg(long, value_name = "FILE")]
    filter: Option<PathBuf>,
    /// Issues shown in full on the console [default: 20]
    #[arg(long, value_name = "N")]
    console_limit: Option<usize>,
    /// Pure RacerD behaviour: no extensions beyond it
    #[arg(long)]
    racerd_compat: bool,
    /// Also report a field accessed under two different locks (one method holding `mLock`,
    /// another the object's monitor)
    #[arg(long)]
    different_locks: bool,
    /// Report only races on stable paths: leave out accesses through a field their method
    /// assigns (fewer reports, some true races among those left out)
    #[arg(long)]
    high_confidence: bool,
    /// Turn one extension of the default mode off (`thread-handoffs`; repeatable; names in
    /// docs/analysis.md, "Turning one extension off")
    #[arg(long, value_name = "NAME")]
    without_extension: Vec<String>,
    /// Stop with an error when the analysis holds more than SIZE of memory (512m, 2g)
    #[arg(long, value_name = "SIZE", value_parser = parse_memory_mb)]
    max_memory: Option<u64>,
    /// Exit with status 1 when any new issue is reported (baselined and suppressed ones do not count)
    #[arg(long)]
    fail_on_issues: bool,
    /// Do not print warnings or the summary line to stderr
    #[arg(long, short = 'q')]
    quiet: bool,
}

fn parse_format(text: &str) -> Result<Format, String> {
    text.parse()
}

/// Whole MiB, rounded up so that a small limit is never 0 (unlimited).
fn parse_memory_mb(text: &str) -> Result<u64, String> {
    racer::memory::parse_size(text).map(|bytes| (bytes as u64).div_ceil(1 << 20))
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    /// Help or version text, for stdout.
    Print(String),
    Analyze(Box<Analyze>),
    /// A request document from this file (None: stdin).
    AnalyzeRequest(Option<PathBuf>),
    /// The file, and the class patterns the dump is limited to (none: every class).
    DumpSummaries(PathBuf, Vec<String>),
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
    let argv = std::iter::once(OsString::from("racer")).chain(args);
    let cli = match Cli::try_parse_from(argv) {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            return Ok(Command::Print(e.render().to_string()))
        }
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand) => {
            return Err("no command given (try 'racer help')".into())
        }
        Err(e) => return Err(one_line(&e.render().to_string())),
    };
    match cli.command {
        Sub::Analyze(args) => analyze(args),
        Sub::AnalyzeRequest { file } => Ok(Command::AnalyzeRequest(file.filter(|f| f.as_os_str() != "-"))),
        Sub::Summaries { action: SummariesAction::Dump { file, classes } } => Ok(Command::DumpSummaries(file, classes)),
    }
}

/// clap's message up to its usage block, on one line, with our own pointer to the help.
fn one_line(rendered: &str) -> String {
    let message: Vec<&str> = rendered.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
    let message = message.join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    format!("{message} (try 'racer help')")
}

fn analyze(args: AnalyzeArgs) -> Result<Command, String> {
    let mut request = Request { request_version: REQUEST_VERSION, ..Request::default() };
    request.inputs = args.inputs;
    for list in &args.classpath {
        request.classpath.extend(std::env::split_paths(list).filter(|p| !p.as_os_str().is_empty()));
    }
    request.source_paths = args.source_path;
    request.summaries_in = args.summaries_in;
    request.summaries_out = args.summaries_out;
    request.baseline = args.baseline;
    request.write_baseline = args.write_baseline;
    request.filter = args.filter;
    request.console_limit = args.console_limit;
    let options = &mut request.options;
    options.thread_safe_annotations = args.thread_safe_annotation;
    options.ignore_classes = args.ignore_class;
    options.library_packages = args.library_package;
    options.threads = args.threads;
    options.racerd_compat = args.racerd_compat;
    options.different_locks = args.different_locks;
    options.high_confidence = args.high_confidence;
    options.without_extensions = args.without_extension;
    options.max_memory_mb = args.max_memory.unwrap_or(0);
    Ok(Command::Analyze(Box::new(Analyze {
        request,
        format: args.format.unwrap_or(Format::Text),
        output: args.output,
        fail_on_issues: args.fail_on_issues,
        quiet: args.quiet,
    })))
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
            "--filter", "f.json", "--console-limit", "5", "--racerd-compat", "--different-locks", "--high-confidence", "--max-memory", "2g",
            "--without-extension", "thread-handoffs", "--without-extension", "converged_loops",
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
        assert!(r.options.racerd_compat && r.options.different_locks && r.options.high_confidence);
        assert_eq!(r.options.max_memory_mb, 2048);
        assert_eq!(r.options.without_extensions, ["thread-handoffs", "converged_loops"]);
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
    fn commands() {
        for args in [&["help"][..], &["--help"], &["analyze", "--help"]] {
            assert!(matches!(parse_strs(args), Ok(Command::Print(help)) if help.contains("Usage: racer")), "{args:?}");
        }
        assert!(matches!(parse_strs(&["--version"]), Ok(Command::Print(v)) if v.starts_with("racer ")));
        assert!(matches!(parse_strs(&["analyze-request"]), Ok(Command::AnalyzeRequest(None))));
        assert!(matches!(parse_strs(&["analyze-request", "-"]), Ok(Command::AnalyzeRequest(None))));
        assert!(matches!(parse_strs(&["analyze-request", "r.json"]), Ok(Command::AnalyzeRequest(Some(_)))));
        assert!(parse_strs(&["analyze-request", "a", "b"]).is_err());
        assert!(matches!(parse_strs(&["summaries", "dump", "s.bin"]), Ok(Command::DumpSummaries(p, c)) if p.to_str() == Some("s.bin") && c.is_empty()));
        assert!(matches!(
            parse_strs(&["summaries", "dump", "s.bin", "--class", "a.B", "--class", "c.**"]),
            Ok(Command::DumpSummaries(_, c)) if c == ["a.B", "c.**"]
        ));
        assert!(parse_strs(&["summaries", "dump"]).unwrap_err().contains("<FILE>"));
        assert!(parse_strs(&["summaries", "load", "s.bin"]).is_err());
    }

    #[test]
    fn usage_errors_are_one_line() {
        for (args, needle) in [
            (&[][..], "no command"),
            (&["frobnicate"][..], "'frobnicate'"),
            (&["analyze"][..], "<PATH>..."),
            (&["analyze", "--format", "xml", "x"][..], "'xml'"),
            (&["analyze", "--threads", "many", "x"][..], "'many'"),
            (&["analyze", "--threads", "-1", "x"][..], "'-1'"),
            (&["analyze", "--bogus", "x"][..], "'--bogus'"),
            (&["analyze", "x", "--output"][..], "'--output <FILE>'"),
            (&["analyze", "--quiet=yes", "x"][..], "'yes'"),
            (&["analyze", "--format", "json", "--format", "text", "x"][..], "multiple times"),
            (&["analyze", "--ignore-class", "", "x"][..], "'--ignore-class <NAME|GLOB>'"),
            (&["analyze", "--max-memory", "lots", "x"][..], "'lots'"),
            (&["analyze", "--console-limit", "-3", "x"][..], "'-3'"),
            (&["analyze", "--baseline", "a", "--baseline", "b", "x"][..], "multiple times"),
        ] {
            let err = parse_strs(args).unwrap_err();
            assert!(err.contains(needle), "{args:?}: {err}");
            assert!(!err.contains('\n'));
        }
    }
}

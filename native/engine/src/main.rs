//! The `racer` command: parses arguments into a [`racer::api::Request`], runs
//! [`racer::analyze`] and renders the result.
mod allocator;
mod cli;
mod pages;

use std::io::Write;
use std::process::ExitCode;

use racer::api::Response;
use racer::report::{self, Format};

// The analysis allocates many small, short-lived objects from several threads; the
// count of live bytes backs --max-memory.
#[global_allocator]
static GLOBAL: racer::memory::Counting<allocator::Mimalloc> = racer::memory::Counting(allocator::Mimalloc);

const EXIT_ISSUES: u8 = 1;
const EXIT_ERROR: u8 = 2;

fn main() -> ExitCode {
    racer::guard::one_line_internal_errors();
    match cli::parse(std::env::args_os().skip(1).collect()) {
        Ok(cli::Command::Print(text)) => {
            print_stdout(&text);
            ExitCode::SUCCESS
        }
        Ok(cli::Command::Analyze(analyze)) => run(*analyze),
        Ok(cli::Command::AnalyzeRequest(file)) => run_request(file),
        Ok(cli::Command::DumpSummaries(path, classes)) => match racer::summaries::dump::write(&path, &classes, &mut std::io::stdout().lock()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => error(&e.0),
        },
        Err(message) => error(&message),
    }
}

fn run(cli: cli::Analyze) -> ExitCode {
    pages::fit_to_run(&cli.request.inputs, cli.request.summaries_out.is_some());
    // The run ends with `exit_without_freeing`.
    racer::memory::process_ends_after_run();
    let response = match racer::analyze(&cli.request) {
        Ok(response) => response,
        Err(e) => return error(&e.0),
    };
    let mut diagnostics = response.diagnostics.clone();
    diagnostics.sort();
    diagnostics.dedup();
    if !cli.quiet {
        for d in &diagnostics {
            eprintln!("racer: warning: {}: {}", d.file, one_line(&d.message));
        }
    }
    let rendered = if cli.format == Format::Text && cli.output.is_none() {
        // The console text (grouped, capped); warnings already went to stderr.
        let shown = Response { diagnostics: Vec::new(), ..response.clone() };
        let limit = cli.request.console_limit.unwrap_or(racer::api::DEFAULT_CONSOLE_LIMIT);
        let sources = report::SourceIndex::new(&cli.request.source_paths);
        report::console::render(&shown, &sources, limit, cli.request.reports.html.as_deref())
    } else {
        report::render(cli.format, &response, &cli.request.source_paths)
    };
    match &cli.output {
        Some(path) => {
            if let Err(e) = report::write_atomic(path, rendered.as_bytes()) {
                return error(&e.0);
            }
            if !cli.quiet {
                let issues = report::groups::count_line(&response.counts);
                eprintln!("racer: {issues}; {} report written to {}", cli.format, path.display());
                if let Some(stale) = report::groups::stale_line(response.counts.stale_baseline_entries) {
                    eprintln!("racer: {stale}");
                }
            }
        }
        None => print_stdout(&rendered),
    }
    exit_without_freeing(if cli.fail_on_issues && response.counts.new > 0 { EXIT_ISSUES } else { 0 })
}

/// Ends the process once the run's output is written and closed: the kernel takes back the
/// analysis's memory whole (hundreds of megabytes on a large input), instead of the
/// allocator freeing and tidying it block by block at exit.
fn exit_without_freeing(code: u8) -> ! {
    let _ = std::io::stdout().flush();
    // SAFETY: `_exit` ends the process at once; nothing runs after it.
    unsafe { libc::_exit(i32::from(code)) }
}

/// The build plugins' child-process mode: the same request and response documents as
/// over JNI, on stdin (or a file) and stdout; a failure is one line on stderr, status 2.
fn run_request(file: Option<std::path::PathBuf>) -> ExitCode {
    let text = match &file {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{}: cannot read the request: {e}", path.display())),
        None => std::io::read_to_string(std::io::stdin()).map_err(|e| format!("cannot read the request from stdin: {e}")),
    };
    match text.and_then(|t| racer::analyze_json(&t)) {
        Ok(response) => {
            print_stdout(&response);
            ExitCode::SUCCESS
        }
        Err(message) => error(&message),
    }
}

fn error(message: &str) -> ExitCode {
    let message = one_line(message);
    let message = message.strip_prefix("racer: ").unwrap_or(&message);
    eprintln!("racer: error: {message}");
    ExitCode::from(EXIT_ERROR)
}

/// Writes to stdout, quietly stopping if the reader went away (`racer ... | head`).
fn print_stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

fn one_line(s: &str) -> String {
    s.split(['\n', '\r']).map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}

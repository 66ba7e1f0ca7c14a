//! Lines of code kotlinc inlines (JSR-45 source maps): the body of an inline function
//! (`filterTo`, `synchronized`, one of the code's own) copied into a class gets line numbers
//! past the end of the class's source file, and the class's `SourceDebugExtension` maps them
//! back. Its `KotlinDebug` stratum maps each such line to the line of the call that inlined
//! it, in the class's own file: that is the line a report names, the one the user wrote.

/// The lines a class's `KotlinDebug` stratum maps to call sites: (first output line, last
/// output line, first call-site line, output lines per call-site line).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct InlineLines(Vec<(u32, u32, u32, u32)>);

impl InlineLines {
    /// The call-site lines of a `SourceDebugExtension`; none for a map without a `KotlinDebug`
    /// stratum, or one that does not parse.
    pub fn parse(smap: &str) -> InlineLines {
        let mut ranges = Vec::new();
        let mut stratum = "";
        let mut in_lines = false;
        // An entry's file is the previous entry's unless it names one (JSR-45).
        let mut file = 1;
        for line in smap.lines().map(str::trim) {
            if let Some(name) = line.strip_prefix("*S ") {
                stratum = name.trim();
                in_lines = false;
            } else if line.starts_with('*') {
                in_lines = line == "*L";
            } else if in_lines && stratum == "KotlinDebug" {
                let Some((named_file, range)) = line_entry(line) else { continue };
                file = named_file.unwrap_or(file);
                // File 1 is the class's own source file, where the calls that inline are.
                if file == 1 {
                    ranges.push(range);
                }
            }
        }
        InlineLines(ranges)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The call-site line of output line `line`, or `line` itself when no inlining made it.
    pub fn call_site(&self, line: u32) -> u32 {
        self.0
            .iter()
            .find(|&&(first, last, _, _)| (first..=last).contains(&line))
            .map_or(line, |&(first, _, input, per_input)| input + (line - first) / per_input.max(1))
    }
}

/// One line entry, `InputStartLine[#FileId][,RepeatCount]:OutputStartLine[,OutputLineIncrement]`:
/// the file it names, if any, and the output lines it maps.
fn line_entry(entry: &str) -> Option<(Option<u32>, (u32, u32, u32, u32))> {
    let (input, output) = entry.split_once(':')?;
    let (input, repeat) = match input.split_once(',') {
        Some((i, r)) => (i, r.parse::<u32>().ok()?),
        None => (input, 1),
    };
    let (input_start, file) = match input.split_once('#') {
        Some((line, file)) => (line.parse::<u32>().ok()?, Some(file.parse::<u32>().ok()?)),
        None => (input.parse::<u32>().ok()?, None),
    };
    let (output_start, increment) = match output.split_once(',') {
        Some((o, inc)) => (o.parse::<u32>().ok()?, inc.parse::<u32>().ok()?),
        None => (output.parse::<u32>().ok()?, 1),
    };
    let covered = repeat.checked_mul(increment.max(1))?;
    let last = output_start.checked_add(covered.checked_sub(1)?)?;
    Some((file, (output_start, last, input_start, increment.max(1))))
}

#[cfg(test)]
mod tests {
    use super::InlineLines;

    const SMAP: &str = "SMAP\nScores.kt\nKotlin\n*S Kotlin\n*F\n+ 1 Scores.kt\nk/Scores\n+ 2 _Collections.kt\nkotlin/collections/CollectionsKt___CollectionsKt\n*L\n1#1,66:1\n857#2,2:67\n*E\n*S KotlinDebug\n*F\n+ 1 Scores.kt\nk/Scores\n*L\n35#1:67,2\n40#1,2:69\n*E\n";

    #[test]
    fn inlined_lines_map_to_their_call_sites() {
        let lines = InlineLines::parse(SMAP);
        assert_eq!(lines.call_site(12), 12);
        assert_eq!(lines.call_site(67), 35);
        assert_eq!(lines.call_site(68), 35);
        assert_eq!(lines.call_site(69), 40);
        assert_eq!(lines.call_site(70), 41);
        assert_eq!(lines.call_site(71), 71);
    }

    #[test]
    fn only_lines_of_calls_in_the_class_file_count() {
        let smap = "SMAP\nA.kt\nKotlin\n*S KotlinDebug\n*F\n+ 1 A.kt\nA\n+ 2 B.kt\nB\n*L\n35#2:67\n36:68\n40#1:69\n*E\n";
        let lines = InlineLines::parse(smap);
        assert_eq!(lines.call_site(67), 67);
        assert_eq!(lines.call_site(68), 68);
        assert_eq!(lines.call_site(69), 40);
    }

    #[test]
    fn maps_without_kotlin_debug_or_that_do_not_parse_map_nothing() {
        assert!(InlineLines::parse("SMAP\nA.kt\nKotlin\n*S Kotlin\n*F\n+ 1 A.kt\nA\n*L\n1#1,10:1\n*E\n").is_empty());
        assert!(InlineLines::parse("*S KotlinDebug\n*L\nx#1:67\n1:\n,:\n*E\n").is_empty());
        assert!(InlineLines::parse("").is_empty());
    }
}

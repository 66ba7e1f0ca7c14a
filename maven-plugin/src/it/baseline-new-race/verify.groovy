// racer:baseline writes the baseline; moved lines keep the race baselined; a new race fails alone;
// once the baselined race is fixed, its entry is reported as stale and nothing fails.
def check = { ok, String what -> if (!ok) throw new AssertionError(what) }
def log = new File(basedir, 'build.log').text
def builds = log.split(/(?m)^\[INFO\] Scanning for projects\.\.\./).findAll { it.contains('racer') }
check(builds.size() == 4, "four invocations logged, found ${builds.size()}")
def slurp = { String path -> new groovy.json.JsonSlurper().parse(new File(basedir, path)) }

// 1. racer:baseline
def baselineFile = new File(basedir, 'racer-baseline.json')
check(builds[0].contains("[INFO] racer: wrote ${baselineFile.path} with 1 race of baseline-new-race (0 suppressed in the code, not written)"),
        'racer:baseline says what it wrote')
check(builds[0].contains('BUILD SUCCESS'), 'racer:baseline does not fail on the race')
def text = baselineFile.text
check(!text.contains(basedir.path) && !text.contains('/it/'), 'the baseline has no absolute paths')
def baseline = new groovy.json.JsonSlurper().parseText(text)
check(baseline.racer_baseline == 1, "format version 1: ${baseline.racer_baseline}")
check(baseline.regenerate.contains('mvn racer:baseline'), "it says how to regenerate it: ${baseline.regenerate}")
check(baseline.issues.size() == 1, "one entry: ${baseline.issues}")
check(baseline.issues[0].class == 'it.base.Counter' && baseline.issues[0].method == 'get', "the entry is Counter.get: ${baseline.issues[0]}")

// 2. lines inserted above the race: still baselined
def shifted = builds[1]
check(shifted.contains('BUILD SUCCESS'), 'the moved race does not fail the build')
check(shifted.contains('[INFO]     Counter.count: 1 report in 1 method (1 baselined)'), 'the grouped line marks it baselined')
check(shifted.contains('[INFO] racer: 1 issue: 0 new, 1 baselined, 0 suppressed'), 'the counts line: 0 new, 1 baselined')
check(shifted =~ /\[INFO\] racer: no new races found in baseline-new-race \(1 baselined, 0 suppressed, 1 class, /, 'summary line')

// 3. a new race besides the baselined one
def added = builds[2]
check(added =~ /\[ERROR\] Failed to execute goal dev\.racer:racer-maven-plugin:[^:]+:check .*: racer found 1 new race in baseline-new-race \(1 baselined, 0 suppressed\); see the report at file:\S+racer-newrace\/racer\.html/,
        'only the new race fails the build')
check(added.contains('[ERROR] it/base/Gauge.java:12: error: THREAD_SAFETY_VIOLATION'), 'the new race is printed in full')
check(!(added =~ /Counter\.java:\d+: error:/), 'the baselined race is not printed in full')
check(added.contains('[ERROR] racer: 2 issues: 1 new, 1 baselined, 0 suppressed'), 'the counts line: 1 new, 1 baselined')
def json = slurp('racer-newrace/racer.json')  // step 3's reports, kept out of target by -Dracer.outputDirectory
check(json.issues.collect { "${it.class}.${it.method}:${it.line}:${it.baseline}" }.sort() ==
        ['it.base.Counter.get:22:unchanged', 'it.base.Gauge.level:12:new'],
        "racer.json marks the issues: ${json.issues.collect { [it.class, it.method, it.line, it.baseline] }}")
def sarif = slurp('racer-newrace/racer.sarif')
check(sarif.runs[0].results.collect { it.baselineState }.sort() == ['new', 'unchanged'],
        "SARIF baselineState: ${sarif.runs[0].results.collect { it.baselineState }}")

// 4. the baselined race fixed
def fixed = builds[3]
check(fixed.contains('BUILD SUCCESS'), 'nothing fails once the race is fixed')
check(fixed.contains('[INFO] racer: 1 baseline entry no longer occurs; regenerate the baseline to shrink it (racer analyze --write-baseline FILE, gradle racerBaseline, mvn racer:baseline)'),
        'the stale entry is reported, not an error')
check(!fixed.contains('[ERROR]'), 'no error is logged')
return true
